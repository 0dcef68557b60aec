import type { z } from 'zod';
import { agentCodeSchema, type AgentCode } from './headers';

export type HttpMethod = 'GET' | 'POST';
/** How a request carries its payload: query string, JSON body, multipart form-data, or nothing. */
export type PayloadKind = 'query' | 'json' | 'form' | 'none';

export interface Endpoint<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
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
  /** Whether the call needs `broker-token`. */
  auth: boolean;
  payload: PayloadKind;
  request: Req;
  /** Schema of `data` in a successful envelope. */
  response: Res;
  summary: string;
  tag: string;
  /** The web app shows no toast when this call fails (SPEC.md §7 "errors silent"). */
  silent?: boolean;
}

export const defineEndpoint = <Req extends z.ZodType, Res extends z.ZodType>(endpoint: Endpoint<Req, Res>): Endpoint<Req, Res> => endpoint;

export type RequestOf<E> = E extends Endpoint<infer Req, z.ZodType> ? z.input<Req> : never;
export type ResponseOf<E> = E extends Endpoint<z.ZodType, infer Res> ? z.output<Res> : never;

/** The `agent-code` values an endpoint accepts, before the corp's own apps narrow a shared one. */
export const agentsAccepted = (endpoint: Pick<Endpoint, 'agent' | 'shared'>): readonly AgentCode[] =>
  endpoint.shared ? agentCodeSchema.options : [endpoint.agent];
