import type { AgentCode } from '@broker/contract';
import type { WecomClient, WecomCorp } from './wecom-client';
import { errmsgDetails, WecomApiError, wecomProblemOf } from './wecom-errors';
import type { WecomHealth } from './wecom-health';

/** The KYC contact check and the sidebar entries use khzl. */
const CUSTOMER_CONTACT_AGENTS: readonly AgentCode[] = ['khzl'];

export interface ProbeLine {
  corp: string;
  agent: AgentCode;
  agentId: string;
  problem: string | null;
  errcode: number | null;
  /** Hint and the address WeCom saw, for the operator. */
  errmsg: string | null;
  fromIp: string | null;
  /** Ok, or the problem and the admin setting that fixes it. */
  message: string;
}

interface ProbeFinding {
  problem: string;
  fix: string;
  error?: WecomApiError;
}

/** What agent/get shows without an errcode. */
function agentFindings(detail: Awaited<ReturnType<WecomClient['getAgent']>>): ProbeFinding[] {
  const findings: ProbeFinding[] = [];
  if (detail.closed) findings.push({ problem: 'agent-closed', fix: 'the app is disabled (停用): enable it in 应用管理' });
  if (detail.visibleUsers + detail.visibleParties + detail.visibleTags === 0) {
    findings.push({ problem: 'visible-range-empty', fix: 'nobody can open the app: add the client managers to its 可见范围' });
  }
  if (!detail.redirectDomain) {
    findings.push({
      problem: 'trusted-domain-missing',
      fix: 'set 网页授权及JS-SDK → 可信域名 to this server’s host:port (and serve its WW_verify file)',
    });
  }
  return findings;
}

async function probeAgent(
  wecom: WecomClient,
  corp: WecomCorp & { code: string },
  agent: AgentCode,
): Promise<{ findings: ProbeFinding[]; okNote: string }> {
  const asFinding = (error: unknown): ProbeFinding => {
    const failure = error instanceof WecomApiError ? error : new WecomApiError(-1, String(error), 'probe', true);
    const problem = wecomProblemOf(failure);
    return { problem: problem.name, fix: problem.adminFix, error: failure };
  };
  let detail: Awaited<ReturnType<WecomClient['getAgent']>>;
  try {
    await wecom.checkCredentials(corp, agent);
    detail = await wecom.getAgent(corp, agent);
  } catch (error) {
    return { findings: [asFinding(error)], okNote: '' };
  }
  const findings = agentFindings(detail);
  if (CUSTOMER_CONTACT_AGENTS.includes(agent)) {
    try {
      await wecom.getFollowUserList(corp, agent);
    } catch (error) {
      findings.push(asFinding(error));
    }
  }
  const range = detail.visibleParties > 0 ? 'departments' : `${detail.visibleUsers} members`;
  return { findings, okNote: `trusted domain ${detail.redirectDomain}, visible range ${range}` };
}

/**
 * Each configured app once (ADR 0017): gettoken, agent/get (60020 from an untrusted address; the visible range
 * and trusted domain), and one externalcontact call where 客户联系 is needed.
 */
export async function probeWecom(wecom: WecomClient, corps: (WecomCorp & { code: string })[], health?: WecomHealth): Promise<ProbeLine[]> {
  const lines: ProbeLine[] = [];
  for (const corp of corps) {
    for (const agent of Object.keys(corp.agents) as AgentCode[]) {
      const agentId = corp.agents[agent]?.agentId ?? '';
      const { findings, okNote } = await probeAgent(wecom, corp, agent);
      const who = `WeCom probe ${corp.code}/${agent} (agent ${agentId})`;
      const first = findings[0];
      health?.probed(corp.id, agent, first?.problem ?? null);
      const error = findings.find((finding) => finding.error)?.error;
      const fromIp = error ? errmsgDetails(error.errmsg).fromIp : null;
      const described = findings
        .map((finding) => `${finding.error ? `${finding.error.errcode} ` : ''}${finding.problem}: ${finding.fix}`)
        .join('; ');
      lines.push({
        corp: corp.code,
        agent,
        agentId,
        problem: first?.problem ?? null,
        errcode: error?.errcode ?? null,
        errmsg: error?.errmsg ?? null,
        fromIp,
        // The address only when it is the problem: the admin must add it.
        message: first
          ? `${who}: ${described}${fromIp && first.problem === 'ip-not-trusted' ? ` (WeCom saw this server as ${fromIp})` : ''}`
          : `${who}: ok — ${okNote}`,
      });
    }
  }
  return lines;
}
