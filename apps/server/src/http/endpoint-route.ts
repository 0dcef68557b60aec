import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  agentCodeSchema,
  agentsAccepted,
  envelopeSchema,
  ErrorCode,
  errorEnvelopeSchema,
  HEADER_AGENT,
  HEADER_CORP,
  HEADER_TOKEN,
  type Endpoint,
} from '@broker/contract';
import { ApiError } from './api-error';
import { refuseUnstorableText, requireContentType } from './request-guards';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract endpoint a route implements (authorisation and input sweeps read it). */
    endpoint?: Endpoint;
  }
}

const corpHeader = z.string().describe('Corp (tenant) code, e.g. fxhl');
/** Checked by `requireAgent` (090701), not here: a wrong app has its own code, not a validation error. */
const agentHeader = (endpoint: Endpoint) =>
  z
    .string()
    .optional()
    .describe(
      endpoint.shared
        ? `WeCom app making the call: any of ${agentCodeSchema.options.join(', ')} (default ${endpoint.agent})`
        : `WeCom app the call belongs to: ${endpoint.agent}`,
    );
const headersOf = (endpoint: Endpoint) =>
  endpoint.auth
    ? z.object({
        [HEADER_CORP]: corpHeader,
        [HEADER_AGENT]: agentHeader(endpoint),
        [HEADER_TOKEN]: z.string().describe('Token from /api/auth/login/qywx'),
      })
    : z.object({ [HEADER_CORP]: corpHeader.optional(), [HEADER_AGENT]: agentHeader(endpoint) });

/**
 * Issue 17.7, ADR 0015: `agent-code` must name the app the endpoint belongs to (SPEC.md §7); a
 * shared call takes any of the corp's apps and, without the header, is its owner's. Runs after the
 * token check, so a caller without a session learns nothing of the endpoint from it.
 */
function requireAgent(endpoint: Endpoint) {
  const accepted: readonly string[] = agentsAccepted(endpoint);
  const expected = endpoint.shared ? `one of ${accepted.join(', ')}` : endpoint.agent;
  return async (request: FastifyRequest) => {
    const header = request.headers[HEADER_AGENT];
    const sent = Array.isArray(header) ? header[0] : header;
    if (sent === undefined ? endpoint.shared : accepted.includes(sent)) return;
    const owner = endpoint.shared ? "any of the corp's WeCom apps" : `the ${endpoint.agent} app`;
    throw new ApiError(
      ErrorCode.AGENT_MISMATCH,
      `header ${HEADER_AGENT}: must be ${expected}; ${endpoint.method} ${endpoint.path} belongs to ${owner}`,
    );
  };
}

export type EndpointHandler<E extends Endpoint> = (
  input: z.output<E['request']>,
  request: FastifyRequest,
  /** For the few handlers that set a header or cookie; the envelope is still built here. */
  reply: FastifyReply,
) => Promise<z.output<E['response']>> | z.output<E['response']>;

/**
 * Registers a contract endpoint: validates the request with its schema, authenticates when the
 * endpoint says so, and wraps the handler's result in the success envelope, serialised through
 * the response schema (so nothing outside the contract leaks).
 */
export function routeEndpoint<E extends Endpoint>(app: FastifyInstance, endpoint: E, handler: EndpointHandler<E>) {
  const carriesBody = endpoint.payload === 'json' || endpoint.payload === 'form';
  app.withTypeProvider<ZodTypeProvider>().route({
    method: endpoint.method,
    url: endpoint.path,
    config: { endpoint },
    onRequest: [...(endpoint.auth ? [app.authenticate] : []), requireAgent(endpoint)],
    ...(carriesBody ? { preParsing: [requireContentType(endpoint.payload)] } : {}),
    preValidation: [refuseUnstorableText],
    schema: {
      summary: endpoint.summary,
      tags: [endpoint.tag],
      headers: headersOf(endpoint),
      ...(endpoint.payload === 'query' ? { querystring: endpoint.request } : {}),
      ...(carriesBody ? { body: endpoint.request } : {}),
      ...(endpoint.payload === 'form' ? { consumes: ['multipart/form-data'] } : {}),
      ...(endpoint.auth ? { security: [{ brokerToken: [], browserBinding: [] }] } : {}),
      response: {
        200: envelopeSchema(endpoint.response),
        '4xx': errorEnvelopeSchema,
        '5xx': errorEnvelopeSchema,
      },
    },
    handler: async (request, reply) => {
      const input = (carriesBody ? request.body : endpoint.payload === 'query' ? request.query : {}) as z.output<E['request']>;
      const data = await handler(input, request, reply);
      return { code: '0', msg: 'ok', data };
    },
  });
}
