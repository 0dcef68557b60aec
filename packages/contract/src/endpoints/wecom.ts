import { z } from 'zod';
import { areaEndpoints } from '../endpoint';
import { WECOM_FAILURE_CODES } from '../error-codes';

export const jsSdkSignatureSchema = z.object({
  timestamp: z.number().int(),
  nonceStr: z.string(),
  signature: z.string().regex(/^[0-9a-f]{40}$/),
});

export const getJsSdkSign = areaEndpoints({ agent: 'khzl', shared: true, tag: 'wecom' })({
  method: 'POST',
  path: '/api/aggregation/qywx/getJsSdkSign',
  request: z.strictObject({
    url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048, 'must be at most 2048 characters'),
    /**
     * The page's last signature was refused as invalid: drop this agent's cached tickets and sign
     * with fresh ones. Honoured at most once a minute per corp and agent, across replicas (ADR 0018).
     */
    refresh: z.boolean().optional(),
  }),
  response: z.object({
    corpId: z.string(),
    agentId: z.string(),
    /** For `wx.config` / `ww.register` getConfigSignature: signed with the corp jsapi_ticket. */
    config: jsSdkSignatureSchema,
    /** For `wx.agentConfig` / getAgentConfigSignature: signed with the agent's ticket. */
    agentConfig: jsSdkSignatureSchema,
  }),
  summary: 'JS-SDK signatures (config and agentConfig) for a page URL',
  errors: [...WECOM_FAILURE_CODES],
});
