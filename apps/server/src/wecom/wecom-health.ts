import type { AgentCode } from '@broker/contract';
import { wecomProblemOf, type WecomApiError } from './wecom-errors';

export interface AgentHealth {
  corp: string;
  agent: AgentCode;
  status: 'unchecked' | 'ok' | 'problem';
  /** wecom-errors.ts's name, or a probe finding such as `visible-range-empty`. */
  problem: string | null;
  checkedAt: string | null;
}

/**
 * The probe's verdict and app-level problems live calls met since. Only the next probe clears one, so the record
 * does not flap. Per replica: each reaches WeCom from its own address.
 */
export function createWecomHealth(
  corps: { id: number; code: string; agents: Partial<Record<AgentCode, unknown>> }[],
  now: () => number = Date.now,
) {
  const records = new Map<string, AgentHealth>();
  const keyOf = (corpId: number, agent: AgentCode) => `${corpId}:${agent}`;
  for (const corp of corps) {
    for (const agent of Object.keys(corp.agents) as AgentCode[]) {
      records.set(keyOf(corp.id, agent), { corp: corp.code, agent, status: 'unchecked', problem: null, checkedAt: null });
    }
  }
  /** `problem` null: ok. */
  const probed = (corpId: number, agent: AgentCode, problem: string | null) => {
    const record = records.get(keyOf(corpId, agent));
    const status = problem === null ? 'ok' : 'problem';
    if (record) records.set(keyOf(corpId, agent), { ...record, status, problem, checkedAt: new Date(now()).toISOString() });
  };

  return {
    probed,
    recordCall(outcome: { corpId: number; agentCode: AgentCode; error: WecomApiError | null }) {
      if (!outcome.error) return;
      const problem = wecomProblemOf(outcome.error);
      if (problem.scope === 'app') probed(outcome.corpId, outcome.agentCode, problem.name);
    },
    /** `unchecked` before the first probe. */
    summary(): { status: 'ok' | 'degraded' | 'unchecked'; agents: AgentHealth[] } {
      const agents = [...records.values()];
      const status = agents.some((agent) => agent.status === 'problem')
        ? 'degraded'
        : agents.some((agent) => agent.status === 'unchecked')
          ? 'unchecked'
          : 'ok';
      return { status, agents };
    },
    hasProblems: () => [...records.values()].some((agent) => agent.status === 'problem'),
  };
}

export type WecomHealth = ReturnType<typeof createWecomHealth>;
