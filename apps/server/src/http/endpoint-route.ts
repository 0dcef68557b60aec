import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
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
  errorCodesOf,
  type AreaName,
  type Contract,
  type Endpoint,
} from '@broker/contract';
import { callerOf, type Caller } from './caller';
import { ApiError } from './api-error';
import { refuseUnstorableText, requireContentType } from './request-guards';
import { readFormBody } from './form-body';
import { whileConnected } from './client-error';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Authorisation and input sweeps read it. */
    endpoint?: Endpoint;
  }
  interface FastifyInstance {
    /** Tests: an undeclared error code is answered 090500 naming it, so every suite meeting it fails (ADR 0022). */
    refuseUndeclaredErrorCodes: boolean;
    /** A standby or the primary (ADR 0052); absent without standbys. */
    routeStatements?: <T>(endpoint: Endpoint, request: FastifyRequest, reply: FastifyReply, work: () => Promise<T>) => Promise<T>;
  }
}

const corpHeader = z.string().describe('Corp (tenant) code, e.g. fxhl');
/** Checked by `requireAgent` (090701): a wrong app has its own code. */
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
 * `agent-code` must name the endpoint's app (ADR 0015, docs/spec.md §7); a shared call takes any of the corp's
 * apps, and its owner without the header. After the token check: a caller without a session learns nothing from it.
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

/**
 * Every envelope the route sends, the error handler's included, before it is serialised: an undeclared code is
 * logged, or in tests replaced. A callback hook, so no promise per response.
 */
function guardDeclaredErrorCodes(app: FastifyInstance, endpoint: Endpoint) {
  const declared = new Set<string>([ErrorCode.OK, ...errorCodesOf(endpoint)]);
  return function declaredErrorCodes(
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (error: null, value: unknown) => void,
  ) {
    const code = (payload as { code?: unknown } | null)?.code;
    if (typeof code !== 'string' || declared.has(code)) return done(null, payload);
    const complaint = `${endpoint.method} ${endpoint.path} answered ${code}, a code its contract does not declare (errors)`;
    request.log.error({ code, msg: (payload as { msg?: unknown }).msg }, complaint);
    if (!app.refuseUndeclaredErrorCodes) return done(null, payload);
    void reply.code(500);
    done(null, { code: ErrorCode.INTERNAL, msg: complaint, data: null });
  };
}

/** The request and reply for the few handlers that read or set a cookie or header. */
interface HandlerBase<E extends Endpoint> {
  input: z.output<E['request']>;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** A public endpoint's handler cannot ask for a caller. */
export type HandlerArgs<E extends Endpoint> = HandlerBase<E> & (E['auth'] extends true ? { caller: Caller } : { caller?: never });

export type EndpointHandler<E extends Endpoint> = (args: HandlerArgs<E>) => Promise<z.output<E['response']>> | z.output<E['response']>;

/** Validates with the endpoint's schema, authenticates, and serialises the result through the response schema. */
export function routeEndpoint<E extends Endpoint>(app: FastifyInstance, endpoint: E, handler: EndpointHandler<E>) {
  const carriesBody = endpoint.payload === 'json' || endpoint.payload === 'form';
  app.withTypeProvider<ZodTypeProvider>().route({
    method: endpoint.method,
    url: endpoint.path,
    config: { endpoint },
    onRequest: [...(endpoint.auth ? [app.authenticate] : []), requireAgent(endpoint)].map(whileConnected),
    preSerialization: guardDeclaredErrorCodes(app, endpoint),
    ...(carriesBody ? { preParsing: [requireContentType(endpoint.payload)] } : {}),
    preValidation: endpoint.payload === 'form' ? [readFormBody, refuseUnstorableText] : [refuseUnstorableText],
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
      const args = endpoint.auth ? { input, request, reply, caller: callerOf(request) } : { input, request, reply };
      const run = async () => handler(args as HandlerArgs<E>);
      const data = await (app.routeStatements ? app.routeStatements(endpoint, request, reply, run) : run());
      return { code: '0', msg: 'ok', data };
    },
  });
}

type Area = Readonly<Record<string, Endpoint>>;

export type AreaHandlers<A extends Area> = { readonly [Name in keyof A]: EndpointHandler<A[Name]> };
/** A returned object escapes excess-property checks: an extra handler must not. */
type NoExtraHandlers<A extends Area, Handlers> = { readonly [Name in Exclude<keyof Handlers, keyof A>]: never };

export interface AreaRoutes<A extends Area, Options = void> {
  readonly area: A;
  register(app: FastifyInstance, options: Options): Promise<void>;
}

/** ts-rest style: a missing or extra handler, a wrong input field or response shape does not compile. */
export function implementArea<A extends Area, Handlers extends AreaHandlers<A>, Options = void>(
  area: A,
  handlersFor: (app: FastifyInstance, options: Options) => Handlers & NoExtraHandlers<A, Handlers>,
): AreaRoutes<A, Options> {
  const plugin: FastifyPluginAsync<Options & object> = async (scope, options) => {
    const handlers = handlersFor(scope, options);
    for (const name of Object.keys(area) as (keyof A & string)[]) {
      routeEndpoint(scope, area[name]!, handlers[name] as EndpointHandler<Endpoint>);
    }
  };
  return { area, register: async (app, options) => void (await app.register(plugin, (options ?? {}) as Options & object)) };
}

export const withOptions = <A extends Area, Options>(routes: AreaRoutes<A, Options>, options: Options): AreaRoutes<A> => ({
  area: routes.area,
  register: (app) => routes.register(app, options),
});

/** An area left out does not compile. */
export type ContractRoutes = { readonly [Name in AreaName]: AreaRoutes<Contract[Name]> };

export async function registerContractRoutes(app: FastifyInstance, routes: ContractRoutes) {
  for (const area of Object.values(routes)) await area.register(app);
}
