import { z } from 'zod';

// Defined beside the request encoding, which the web's first screen imports without zod.
export { HEADER_CORP, HEADER_AGENT, HEADER_TOKEN, HEADER_REQUEST_ID } from './request-encoding';

export const agentCodeSchema = z.enum(['khzl', 'khgl', 'mot']);
export type AgentCode = z.infer<typeof agentCodeSchema>;

export const corpCodeSchema = z.string().regex(/^[a-z0-9_-]{1,32}$/, 'must be 1-32 lowercase letters, digits, _ or -');

export const DEFAULT_CORP_CODE = 'fxhl';
export const DEFAULT_AGENT_CODE: AgentCode = 'khzl';
