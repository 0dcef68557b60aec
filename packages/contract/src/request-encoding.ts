/*
 * How a call goes on the wire (method, path and query, headers, body as its `payload` says): one owner for the web's
 * request layer and the server's test client. No zod: the web's first screen imports `@broker/contract/request-encoding`.
 */
import type { Endpoint } from './endpoint';

export const HEADER_CORP = 'corp-code';
export const HEADER_AGENT = 'agent-code';
export const HEADER_TOKEN = 'broker-token';
export const HEADER_REQUEST_ID = 'x-request-id';

/** What the encoding reads of an endpoint: all the web's zod-free wire endpoints carry. */
export type EncodableEndpoint = Pick<Endpoint, 'method' | 'path' | 'agent' | 'auth' | 'payload'>;

/** Who calls, as the headers say it. */
export interface RequestCaller {
  /** `corp-code`; null: none. */
  corp: string | null;
  /** `broker-token`, sent to authenticated endpoints only; null or empty: none. */
  token?: string | null;
  /** `agent-code`; by default the endpoint's own app; null: none. */
  agent?: string | null;
}

export interface EncodedRequest {
  method: Endpoint['method'];
  /** The endpoint's path, and `?` with the query string when the payload has one. */
  url: string;
  headers: Record<string, string>;
  /** JSON text for a JSON payload, form-data for a form payload, nothing otherwise. */
  body?: string | FormData;
}

/** The headers of a call: the app (the endpoint's unless the caller names one), the corp, and the token only where a session is needed. */
export function requestHeaders(endpoint: { agent?: string; auth: boolean }, caller: RequestCaller): Record<string, string> {
  const headers: Record<string, string> = {};
  const agent = caller.agent === undefined ? endpoint.agent : caller.agent;
  if (agent != null) headers[HEADER_AGENT] = agent;
  if (caller.corp !== null) headers[HEADER_CORP] = caller.corp;
  if (endpoint.auth && caller.token) headers[HEADER_TOKEN] = caller.token;
  return headers;
}

/** Payload fields in the order given, null and undefined left out, an array as the same key repeated. */
function fieldsOf(payload: Record<string, unknown>): [string, unknown][] {
  return Object.entries(payload).flatMap(([key, value]): [string, unknown][] =>
    value === undefined || value === null
      ? []
      : Array.isArray(value)
        ? value.map((item): [string, unknown] => [key, item])
        : [[key, value]],
  );
}

/** A payload as a query string (without the `?`). */
export function queryStringOf(payload: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of fieldsOf(payload)) params.append(key, String(value));
  return params.toString();
}

function formDataOf(payload: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [key, value] of fieldsOf(payload)) form.append(key, value instanceof Blob ? value : String(value));
  return form;
}

/** One call to `endpoint` with `input`, ready for fetch (a form's content type, with its boundary, is fetch's to set). */
export function encodeRequest(
  endpoint: EncodableEndpoint,
  input: Record<string, unknown> | undefined,
  caller: RequestCaller,
): EncodedRequest {
  const payload = input ?? {};
  const encoded: EncodedRequest = { method: endpoint.method, url: endpoint.path, headers: requestHeaders(endpoint, caller) };
  switch (endpoint.payload) {
    case 'query': {
      const query = queryStringOf(payload);
      if (query) encoded.url += `?${query}`;
      break;
    }
    case 'json':
      encoded.headers['content-type'] = 'application/json';
      encoded.body = JSON.stringify(payload);
      break;
    case 'form':
      encoded.body = formDataOf(payload);
      break;
    case 'none':
      break;
  }
  return encoded;
}
