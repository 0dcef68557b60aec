import type { Endpoint } from '@broker/contract';
import { encodeRequest } from '@broker/contract/request-encoding';

/** One call as it goes over the wire. */
export interface WireRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers: Record<string, string>;
}

export type EndpointInput = Record<string, string | number | boolean | string[] | undefined>;

/** The web app's WebView always offers compression, so the server's gzip work is part of the measured time. */
export const BROWSER_LIKE_HEADERS = { 'accept-encoding': 'gzip, deflate, br' } as const;

/** An endpoint call encoded by the contract's own `encodeRequest`, as the web app sends it; `authHeaders`: corp and session. */
export function wireRequest(endpoint: Endpoint, input: EndpointInput, authHeaders: Record<string, string>): WireRequest {
  if (endpoint.payload === 'form') throw new Error(`${endpoint.path}: form payloads are not benchmarked`);
  const encoded = encodeRequest(endpoint, input, { corp: null });
  const headers = { ...BROWSER_LIKE_HEADERS, ...authHeaders, ...encoded.headers };
  return { method: encoded.method, path: encoded.url, headers, ...(typeof encoded.body === 'string' ? { body: encoded.body } : {}) };
}

/** Sends one call and returns its envelope; throws naming the call when it is not a success. */
export async function callEndpoint(baseUrl: string, request: WireRequest): Promise<unknown> {
  const response = await fetch(`${baseUrl}${request.path}`, {
    method: request.method,
    headers: request.headers,
    ...(request.body !== undefined ? { body: request.body } : {}),
  });
  const text = await response.text();
  let envelope: { code?: string; msg?: string; data?: unknown };
  try {
    envelope = JSON.parse(text) as typeof envelope;
  } catch {
    throw new Error(`${request.method} ${request.path} answered HTTP ${response.status} with a non-JSON body: ${text.slice(0, 200)}`);
  }
  if (!response.ok || envelope.code !== '0')
    throw new Error(
      `${request.method} ${request.path}${request.body ? ` ${request.body}` : ''} answered HTTP ${response.status} code ${envelope.code}: ${envelope.msg}`,
    );
  return envelope.data;
}
