import type { AgentCode } from '@broker/contract';
import { wecomProblemOf, type WecomApiError } from './wecom-errors';

export type AgentHealthStatus = 'unchecked' | 'ok' | 'problem';

export interface AgentHealth {
  corp: string;
  agent: AgentCode;
  status: AgentHealthStatus;
  /** The named problem (wecom-errors.ts, or a probe finding such as `visible-range-empty`), else null. */
  problem: string | null;
  checkedAt: string | null;
}

/**
 * What this replica knows of each WeCom app: the start-up probe's verdict, and app-level problems
 * its live calls met since (60020, 48002, 45009, -1 …; never one user's bad code). A success does not
 * clear a problem — the next probe does — so the record does not flap between calls of different APIs.
 * In memory per replica: each replica reaches WeCom from its own address (trusted IPs are per replica).
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
  const set = (corpId: number, agent: AgentCode, status: AgentHealthStatus, problem: string | null) => {
    const record = records.get(keyOf(corpId, agent));
    if (record) records.set(keyOf(corpId, agent), { ...record, status, problem, checkedAt: new Date(now()).toISOString() });
  };

  return {
    /** The probe's verdict for one app. */
    probed(corpId: number, agent: AgentCode, problem: string | null) {
      set(corpId, agent, problem === null ? 'ok' : 'problem', problem);
    },
    /** A live call's outcome: app-level failures mark the app. */
    recordCall(outcome: { corpId: number; agentCode: AgentCode; error: WecomApiError | null }) {
      if (!outcome.error) return;
      const problem = wecomProblemOf(outcome.error);
      if (problem.scope === 'app') set(outcome.corpId, outcome.agentCode, 'problem', problem.name);
    },
    agents: (): AgentHealth[] => [...records.values()],
    /** `ok` when every app is fine, `degraded` when any has a problem, `unchecked` before the first probe. */
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
