import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  agentCodeSchema,
  envelopeSchema,
  errorEnvelopeSchema,
  HEADER_AGENT,
  HEADER_CORP,
  HEADER_TOKEN,
  type Endpoint,
} from '@broker/contract';
import { refuseUnstorableText, requireContentType } from './request-guards';
import { readFormBody } from './form-body';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract endpoint a route implements (authorisation and input sweeps read it). */
    endpoint?: Endpoint;
  }
}

const baseHeaders = {
  [HEADER_CORP]: z.string().describe('Corp (tenant) code, e.g. fxhl'),
  [HEADER_AGENT]: agentCodeSchema.describe('WeCom app: khzl, khgl or mot'),
};
const publicHeaders = z.object({
  [HEADER_CORP]: baseHeaders[HEADER_CORP].optional(),
  [HEADER_AGENT]: baseHeaders[HEADER_AGENT].optional(),
});
const businessHeaders = z.object({ ...baseHeaders, [HEADER_TOKEN]: z.string().describe('Token from /api/auth/login/qywx') });

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
    onRequest: endpoint.auth ? [app.authenticate] : [],
    ...(carriesBody ? { preParsing: [requireContentType(endpoint.payload)] } : {}),
    preValidation: endpoint.payload === 'form' ? [readFormBody, refuseUnstorableText] : [refuseUnstorableText],
    schema: {
      summary: endpoint.summary,
      tags: [endpoint.tag],
      headers: endpoint.auth ? businessHeaders : publicHeaders,
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
