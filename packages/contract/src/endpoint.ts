import type { z } from 'zod';
import type { AgentCode } from './headers';

export type HttpMethod = 'GET' | 'POST';
/** How a request carries its payload: query string, JSON body, multipart form-data, or nothing. */
export type PayloadKind = 'query' | 'json' | 'form' | 'none';

export interface Endpoint<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  method: HttpMethod;
  path: string;
  /** The WeCom app the call belongs to; sent as `agent-code`. */
  agent: AgentCode;
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
