import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { agentCodeSchema, corpCodeSchema } from '../headers';
import { epochMsSchema } from '../common';

export const loginResultSchema = z.object({
  token: z.string().min(1),
  onlineStaff: z.boolean(),
  /** Epoch milliseconds after which the token is refused with 080000. */
  tokenExpireTime: epochMsSchema,
  bd: z.boolean(),
  heco: z.boolean(),
  staffEmail: z.object({ email: z.string().nullable() }),
  /** The staff member's WeCom userid: whose drafts and page state the browser may show (ADR 0013). */
  userId: z.string(),
  staffName: z.string(),
});
export type LoginResult = z.infer<typeof loginResultSchema>;

export const loginQywx = defineEndpoint({
  method: 'GET',
  path: '/api/auth/login/qywx',
  agent: 'khzl',
  auth: false,
  payload: 'query',
  request: z.strictObject({
    code: z.string().trim().min(1, 'must not be empty').max(512, 'must be at most 512 characters'),
  }),
  response: loginResultSchema,
  summary: 'Exchange a WeCom OAuth code for a broker token',
  tag: 'auth',
});

export const corpConfigSchema = z.object({
  corpCode: corpCodeSchema,
  corpId: z.string(),
  corpName: z.string(),
  agents: z.array(z.object({ agentCode: agentCodeSchema, agentId: z.string() })),
  /** Base of WeCom's OAuth authorise page: `{oauthBase}/connect/oauth2/authorize`. */
  oauthBase: z.string(),
  /** True when the server talks to the local WeCom emulator instead of WeCom. */
  emulator: z.boolean(),
});
export type CorpConfig = z.infer<typeof corpConfigSchema>;

/** Public facts the web app needs before sign-in: corpId (wxAppId), agent ids, OAuth base. */
export const getCorpConfig = defineEndpoint({
  method: 'GET',
  path: '/api/auth/corpConfig',
  agent: 'khzl',
  auth: false,
  payload: 'query',
  request: z.strictObject({ corpCode: corpCodeSchema }),
  response: corpConfigSchema,
  summary: 'Public sign-in configuration of a corp',
  tag: 'auth',
});
