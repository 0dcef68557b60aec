import type { z } from 'zod';
import { agentCodeSchema, type AgentCode } from './headers';
import { ErrorCode, SESSION_ENDED_CODES, type ErrorCodeValue } from './error-codes';

export type HttpMethod = 'GET' | 'POST';
/** How a request carries its payload: query string, JSON body, multipart form-data, or nothing. */
export type PayloadKind = 'query' | 'json' | 'form' | 'none';

export interface Endpoint<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType, Auth extends boolean = boolean> {
  method: HttpMethod;
  path: string;
  /**
   * The WeCom app the call belongs to (SPEC.md §7), its one owner: the web app sends it as
   * `agent-code` and the server refuses any other app with 090701 (ADR 0015).
   */
  agent: AgentCode;
  /**
   * Staff, common, sign-in, JS-SDK and audit calls, which every app of the corp makes: the owner
   * (khzl) is sent by default, and any other app of the corp is accepted ("unless the app sends
   * otherwise", issue 17.7).
   */
  shared?: true;
  /** Whether the call needs `broker-token`; the server hands an authenticated call's handler its caller. */
  auth: Auth;
  payload: PayloadKind;
  request: Req;
  /** Schema of `data` in a successful envelope. */
  response: Res;
  summary: string;
  tag: string;
  /** The web app shows no toast when this call fails (SPEC.md §7 "errors silent"). */
  silent?: boolean;
  /**
   * The codes this endpoint answers beyond those every endpoint can answer (`commonErrorCodesOf`):
   * its own refusals. The server refuses, in tests, to answer a code not declared (ADR 0022).
   */
  errors: readonly ErrorCodeValue[];
}

export const defineEndpoint = <Req extends z.ZodType, Res extends z.ZodType, Auth extends boolean>(
  endpoint: Endpoint<Req, Res, Auth>,
): Endpoint<Req, Res, Auth> => endpoint;

export type RequestOf<E> = E extends Endpoint<infer Req, z.ZodType> ? z.input<Req> : never;
export type ResponseOf<E> = E extends Endpoint<z.ZodType, infer Res> ? z.output<Res> : never;

/** The `agent-code` values an endpoint accepts, before the corp's own apps narrow a shared one. */
export const agentsAccepted = (endpoint: Pick<Endpoint, 'agent' | 'shared'>): readonly AgentCode[] =>
  endpoint.shared ? agentCodeSchema.options : [endpoint.agent];

/**
 * What any endpoint can answer, whatever it does: a request refused before or during validation
 * (the bytes, the connection, the fields, the app), the server failing or shedding load, a
 * general rate limit; and, when it needs a session, an invalid or expired one.
 */
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
