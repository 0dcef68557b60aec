import type { z } from 'zod';
import { agentCodeSchema, type AgentCode } from './headers';
import { ErrorCode, SESSION_ENDED_CODES, type ErrorCodeValue } from './error-codes';

export type HttpMethod = 'GET' | 'POST';
/** How a request carries its payload: query string, JSON body, multipart form-data, or nothing. */
export type PayloadKind = 'query' | 'json' | 'form' | 'none';

export interface Endpoint<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType, Auth extends boolean = boolean> {
  method: HttpMethod;
  path: string;
  /** The WeCom app the call belongs to (docs/spec.md §7): sent as `agent-code`, any other refused with 090701 (ADR 0015). */
  agent: AgentCode;
  /** Staff, common, sign-in, JS-SDK and audit calls, which every app of the corp makes: any app of the corp is accepted (ADR 0015). */
  shared?: true;
  /** Whether the call needs `broker-token`; the server hands an authenticated call's handler its caller. */
  auth: Auth;
  payload: PayloadKind;
  request: Req;
  /** Schema of `data` in a successful envelope. */
  response: Res;
  summary: string;
  tag: string;
  /** The web app shows no toast when this call fails (docs/spec.md §7 "errors silent"). */
  silent?: boolean;
  /** Its own refusals, beyond `commonErrorCodesOf`; in tests the server refuses to answer a code not declared (ADR 0022). */
  errors: readonly ErrorCodeValue[];
}

/** An endpoint as written: `payload` follows the method unless given (GET a query string, POST a JSON body); `errors` default to none. */
type EndpointDefinition<Req extends z.ZodType, Res extends z.ZodType, Auth extends boolean> = Omit<
  Endpoint<Req, Res, Auth>,
  'payload' | 'errors'
> &
  Partial<Pick<Endpoint, 'payload' | 'errors'>>;

export const defineEndpoint = <Req extends z.ZodType, Res extends z.ZodType, Auth extends boolean>(
  endpoint: EndpointDefinition<Req, Res, Auth>,
): Endpoint<Req, Res, Auth> => ({ payload: endpoint.method === 'GET' ? 'query' : 'json', errors: [], ...endpoint });

/** The endpoints of one area share their app, their tag and whether they are shared; each needs a session unless `auth: false`. */
export const areaEndpoints =
  (area: Pick<Endpoint, 'agent' | 'tag' | 'shared'>) =>
  <Req extends z.ZodType, Res extends z.ZodType, Auth extends boolean = true>(
    endpoint: Omit<EndpointDefinition<Req, Res, Auth>, 'agent' | 'tag' | 'auth'> & { auth?: Auth },
  ): Endpoint<Req, Res, Auth> =>
    defineEndpoint<Req, Res, Auth>({ ...area, auth: true as Auth, ...endpoint });

export type RequestOf<E> = E extends Endpoint<infer Req, z.ZodType> ? z.input<Req> : never;
export type ResponseOf<E> = E extends Endpoint<z.ZodType, infer Res> ? z.output<Res> : never;

/** The `agent-code` values an endpoint accepts, before the corp's own apps narrow a shared one. */
export const agentsAccepted = (endpoint: Pick<Endpoint, 'agent' | 'shared'>): readonly AgentCode[] =>
  endpoint.shared ? agentCodeSchema.options : [endpoint.agent];

/** What any endpoint can answer, whatever it does: bad bytes, connection or fields, the wrong app, a failing or shedding server. */
const ANY_ENDPOINT_ERRORS: readonly ErrorCodeValue[] = [
  ErrorCode.VALIDATION,
  ErrorCode.PAYLOAD_TOO_LARGE,
  ErrorCode.UNSUPPORTED_MEDIA_TYPE,
  ErrorCode.RATE_LIMITED,
  ErrorCode.INTERNAL,
  ErrorCode.UNAVAILABLE,
  ErrorCode.AGENT_MISMATCH,
  ErrorCode.REQUEST_TIMEOUT,
  ErrorCode.HEADERS_TOO_LARGE,
  ErrorCode.HTTP_MALFORMED,
  ErrorCode.JSON_MALFORMED,
  ErrorCode.TEXT_NOT_UTF8,
  ErrorCode.FORM_MALFORMED,
  ErrorCode.FORM_TOO_LARGE,
  ErrorCode.CONTENT_LENGTH_MISMATCH,
  ErrorCode.URL_MALFORMED,
];

/** The codes an endpoint answers without declaring them: every endpoint's, and a session's when it needs one. */
export const commonErrorCodesOf = (endpoint: Pick<Endpoint, 'auth'>): readonly ErrorCodeValue[] =>
  endpoint.auth ? [...SESSION_ENDED_CODES, ...ANY_ENDPOINT_ERRORS] : ANY_ENDPOINT_ERRORS;

/** Every code the endpoint may answer other than success: the common ones and its own, in code order. */
export const errorCodesOf = (endpoint: Pick<Endpoint, 'auth' | 'errors'>): readonly ErrorCodeValue[] =>
  [...new Set([...commonErrorCodesOf(endpoint), ...endpoint.errors])].sort();
