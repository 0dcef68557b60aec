import { HEADER_AGENT, type Endpoint } from '@broker/contract';

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

/** An endpoint call with its input placed where the contract says (query string or JSON body). */
export function wireRequest(endpoint: Endpoint, input: EndpointInput, authHeaders: Record<string, string>): WireRequest {
  const headers: Record<string, string> = { ...BROWSER_LIKE_HEADERS, ...authHeaders, [HEADER_AGENT]: endpoint.agent };
  switch (endpoint.payload) {
    case 'query': {
      const query = new URLSearchParams();
      for (const [key, value] of Object.entries(input)) {
        if (value === undefined) continue;
        if (Array.isArray(value)) throw new Error(`${endpoint.path}: ${key}: arrays cannot go in a query string`);
        query.set(key, String(value));
      }
      const search = query.toString();
      return { method: endpoint.method, path: search ? `${endpoint.path}?${search}` : endpoint.path, headers };
    }
    case 'json':
      return {
        method: endpoint.method,
        path: endpoint.path,
        body: JSON.stringify(input),
        headers: { ...headers, 'content-type': 'application/json' },
      };
    case 'none':
      return { method: endpoint.method, path: endpoint.path, headers };
    case 'form':
      throw new Error(`${endpoint.path}: form payloads are not benchmarked`);
  }
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
