/** The emulated WeCom's directory (corps and agents, members, the external contacts they follow), handed in by its host (ADR 0016). */
import type { AgentPolicy } from './agent-policy';

export interface EmulatorAgent {
  agentId: string;
  secret: string;
  /** What the admin console says for this app; unset fields take the demo defaults (agent-policy.ts). */
  policy?: Partial<AgentPolicy>;
}

/** The corp's callback settings, as its admin enters them in WeCom's console (ADR 0019). */
export interface EmulatorCallback {
  /** Signs every callback (msg_signature). */
  token: string;
  /** Base64 (43 characters, no `=`) of the AES-256 key that encrypts every callback. */
  encodingAesKey: string;
}

export interface EmulatorCorp {
  code: string;
  name: string;
  corpId: string;
  agents: Record<'khzl' | 'khgl' | 'mot', EmulatorAgent>;
  callback?: EmulatorCallback;
}

export interface EmulatorStaff {
  userid: string;
  name: string;
  position: string;
  email: string;
  mobile: string;
  gender: '1' | '2';
}

export interface EmulatorExternalContact {
  externalUserId: string;
  name: string;
  gender: 1 | 2;
  /** Staff userids who have this contact in their WeCom contacts. */
  followedBy: string[];
}
