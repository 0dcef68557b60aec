import { z } from 'zod';

export const HEADER_CORP = 'corp-code';
export const HEADER_AGENT = 'agent-code';
export const HEADER_TOKEN = 'broker-token';
export const HEADER_REQUEST_ID = 'x-request-id';

export const agentCodeSchema = z.enum(['khzl', 'khgl', 'mot']);
export type AgentCode = z.infer<typeof agentCodeSchema>;

export const corpCodeSchema = z.string().regex(/^[a-z0-9_-]{1,32}$/, 'must be 1-32 lowercase letters, digits, _ or -');

export const DEFAULT_CORP_CODE = 'fxhl';
export const DEFAULT_AGENT_CODE: AgentCode = 'khzl';
