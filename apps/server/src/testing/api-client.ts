import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { FastifyInstance } from 'fastify';
import {
  endpoints,
  ErrorCode,
  HEADER_AGENT,
  HEADER_CORP,
  HEADER_TOKEN,
  type Endpoint,
  type EndpointName,
  type ErrorCodeValue,
  type RequestOf,
  type ResponseOf,
} from '@broker/contract';
import { BrowserJar } from './browser-jar';

/**
 * The one way suites call the API. Typed from the contract (`endpoints`): one method per endpoint,
 * its input the request schema's input, its answer the envelope with `data` typed by the response
 * schema. Headers and payload are built by the web's rules (apps/web/src/shared/api/request.ts):
 * the endpoint's own app as `agent-code`, the token only on authenticated calls, the payload as a
 * query string, a JSON body, multipart form-data or nothing, as the endpoint's `payload` says.
 * `call` sends any input to any endpoint and `raw` any bytes, for the tests that must send wrong things.
 *
 * The target is a running app's base URL (real HTTP, also for other processes) or a Fastify app,
 * which is called through `inject` without a port.
 */

export type { EndpointName };
type EndpointOf<N extends EndpointName> = (typeof endpoints)[N];

export type ApiTarget = string | { baseUrl: string } | FastifyInstance;

/** Who calls: the headers a browser of that staff member would send. */
export interface ApiCaller {
  /** `corp-code`; default the built-in corp `fxhl`; null: no header. */
  corp?: string | null;
  /** `agent-code`; default the endpoint's own app, as the web sends it; null: no header. */
  agent?: string | null;
  /** `broker-token`, sent on authenticated endpoints only (as the web does). */
  token?: string | null;
  /**
   * The browser's cookies. A jar is sent as `Cookie` and takes what each answer sets or clears,
   * like a browser; a string is sent as it is.
   */
  cookies?: BrowserJar | string | null;
  /** Sent on every call after the above, so they win (x-forwarded-for, x-request-id, a hand-made header). */
  headers?: Record<string, string>;
}

/** The successful envelope, `data` as the response schema gives it. */
export interface ApiSuccess<T> {
  code: typeof ErrorCode.OK;
  msg: string;
  data: T;
}
/** Any other answer: a six-digit code from the registry, `data` null. */
export interface ApiFailure {
  code: Exclude<ErrorCodeValue, typeof ErrorCode.OK>;
  msg: string;
  data: null;
  requestId?: string;
}
export type ApiEnvelope<T> = ApiSuccess<T> | ApiFailure;

export interface ApiAnswer<T> {
  status: number;
  headers: Headers;
  body: ApiEnvelope<T>;
  /** The body as it came (for tests that look for what must not be in it). */
  text: string;
}

/** An answer known to be a success: `body.data` is the response. */
export type OkAnswer<T> = ApiAnswer<T> & { body: ApiSuccess<T> };

/**
 * Fails unless the answer is a success (naming its code, msg and status), and from then on types
 * `body.data` as the response: `expectOk(answer); answer.body.data.list`.
 */
export function expectOk<T>(answer: ApiAnswer<T>, context = ''): asserts answer is OkAnswer<T> {
  if (answer.body?.code !== ErrorCode.OK) {
    const what = `${answer.body?.code ?? '(no envelope)'} (HTTP ${answer.status}): ${answer.body?.msg ?? answer.text}`;
    throw new Error(`${context ? `${context}: ` : ''}expected code 0, got ${what}`);
  }
}

/** Whether the answer is a success, typing `body.data` as the response (`answers.filter(isOk)`). */
export const isOk = <T, A extends ApiAnswer<T>>(answer: A & ApiAnswer<T>): answer is A & OkAnswer<T> => answer.body?.code === ErrorCode.OK;

/** What came back for bytes sent by hand: the body parsed as JSON when it is, else the text. */
export interface RawAnswer {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

/** Per call: another app, or extra headers (last word). */
export interface CallOptions {
  agent?: string | null;
  headers?: Record<string, string>;
}

export interface RawRequest extends CallOptions {
  method?: string;
  /** Appended to the path after `?`: a ready string, or pairs encoded like the web's query payloads. */
  query?: string | Record<string, unknown>;
  /** A stream is sent chunked, without a content-length. */
  body?: string | Buffer | FormData | ReadableStream<Uint8Array>;
  /** Sent as `content-type` (FormData sets its own boundary unless this is given). */
  contentType?: string;
}

type InputArgs<E> =
  Record<never, never> extends RequestOf<E> ? [input?: RequestOf<E>, options?: CallOptions] : [input: RequestOf<E>, options?: CallOptions];

export type TypedCalls = {
  [N in EndpointName]: (...args: InputArgs<EndpointOf<N>>) => Promise<ApiAnswer<ResponseOf<EndpointOf<N>>>>;
};
export type TypedData = {
  [N in EndpointName]: (...args: InputArgs<EndpointOf<N>>) => Promise<ResponseOf<EndpointOf<N>>>;
};

export type ApiClient = TypedCalls & {
  /** Each endpoint again, resolving `data` of a "0" answer and throwing (code, msg, status) on any other. */
  ok: TypedData;
  /** Any input to an endpoint, built by its payload kind but not typed: for sweeps and hostile input. */
  call(endpoint: EndpointName | Endpoint, input?: Record<string, unknown>, options?: CallOptions): Promise<ApiAnswer<unknown>>;
  /** Bytes of the test's choosing to a path or an endpoint's path, with the caller's headers. */
  raw(endpoint: (Pick<Endpoint, 'path'> & Partial<Pick<Endpoint, 'method' | 'agent'>>) | string, request?: RawRequest): Promise<RawAnswer>;
  /** The same target with another caller (fields given replace the current ones; headers merge). */
  with(caller: ApiCaller): ApiClient;
  /** The headers a call to `endpoint` sends (an unnamed agent: the caller's, if any; auth unsaid: the token goes). */
  headersFor(endpoint: { agent?: string; auth?: boolean }, options?: CallOptions): Record<string, string>;
};

/** What `signInAs` returned. */
interface SignedInLike {
  headers: Record<string, string>;
  jar: BrowserJar;
}

/**
 * A signed-in browser as it stood at sign-in: its corp, its token and its cookie. Each call names the
 * endpoint's own app, as the web does, whichever app the sign-in went through.
 */
const callerOf = ({ headers }: SignedInLike): ApiCaller => ({
  corp: headers[HEADER_CORP] ?? null,
  token: headers[HEADER_TOKEN] ?? null,
  cookies: headers.cookie ?? null,
});

export function apiClient(target: ApiTarget, caller: ApiCaller | SignedInLike = {}): ApiClient {
  const who: ApiCaller = isSignedIn(caller) ? callerOf(caller) : caller;
  const transport = transportFor(target);

  const headersFor = (endpoint: { agent?: string; auth?: boolean }, options: CallOptions = {}): Record<string, string> => {
    const headers: Record<string, string> = {};
    const corp = who.corp === undefined ? 'fxhl' : who.corp;
    if (corp !== null) headers[HEADER_CORP] = corp;
    const agent = who.agent === undefined ? endpoint.agent : who.agent;
    if (agent != null) headers[HEADER_AGENT] = agent;
    if ((endpoint.auth ?? true) && who.token) headers[HEADER_TOKEN] = who.token;
    const cookie = who.cookies instanceof BrowserJar ? who.cookies.header() : who.cookies;
    if (cookie) headers.cookie = cookie;
    Object.assign(headers, who.headers, options.headers);
    if (options.agent === null) delete headers[HEADER_AGENT];
    else if (options.agent !== undefined) headers[HEADER_AGENT] = options.agent;
    return headers;
  };

  const send = async (request: WireRequest) => {
    const answer = await transport(request);
    if (who.cookies instanceof BrowserJar) who.cookies.takeSetCookie(answer.headers.getSetCookie());
    return answer;
  };

  const call = async (endpointOrName: EndpointName | Endpoint, input: Record<string, unknown> = {}, options: CallOptions = {}) => {
    const endpoint = typeof endpointOrName === 'string' ? endpoints[endpointOrName] : endpointOrName;
    const wire = wireRequestOf(endpoint, input, headersFor(endpoint, options));
    const answer = await send(await wire);
    return { status: answer.status, headers: answer.headers, text: answer.text, body: parseJson(answer.text) as ApiEnvelope<unknown> };
  };

  const raw = async (endpoint: Parameters<ApiClient['raw']>[0], request: RawRequest = {}): Promise<RawAnswer> => {
    const target = typeof endpoint === 'string' ? { path: endpoint } : endpoint;
    const headers = headersFor({ agent: target.agent }, request);
    let body = request.body;
    if (body instanceof FormData) {
      const encoded = await encodeForm(body);
      body = encoded.bytes;
      headers['content-type'] = encoded.contentType;
    }
    if (request.contentType !== undefined) headers['content-type'] = request.contentType;
    const query = typeof request.query === 'string' ? request.query : request.query ? queryStringOf(request.query) : '';
    const answer = await send({
      method: request.method ?? target.method ?? 'GET',
      url: `${target.path}${query ? `?${query}` : ''}`,
      headers,
      body,
    });
    return { status: answer.status, headers: answer.headers, text: answer.text, body: parseJson(answer.text) };
  };

  const typed = {} as Record<EndpointName, (input?: Record<string, unknown>, options?: CallOptions) => Promise<ApiAnswer<unknown>>>;
  const data = {} as Record<EndpointName, (input?: Record<string, unknown>, options?: CallOptions) => Promise<unknown>>;
  for (const name of Object.keys(endpoints) as EndpointName[]) {
    typed[name] = (input, options) => call(name, input, options);
    data[name] = async (input, options) => {
      const answer = await call(name, input, options);
      if (answer.body?.code !== ErrorCode.OK) {
        throw new Error(
          `${name} answered ${answer.body?.code ?? '(no envelope)'} (HTTP ${answer.status}): ${answer.body?.msg ?? answer.text}`,
        );
      }
      return answer.body.data;
    };
  }

  return Object.assign(typed as unknown as TypedCalls, {
    ok: data as unknown as TypedData,
    call,
    raw,
    headersFor,
    with: (next: ApiCaller) => apiClient(target, { ...who, ...next, headers: { ...who.headers, ...next.headers } }),
  });
}

const isSignedIn = (caller: ApiCaller | SignedInLike): caller is SignedInLike => (caller as SignedInLike).jar instanceof BrowserJar;

interface WireRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer | ReadableStream<Uint8Array>;
}

interface WireAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** Query pairs the way the web sends them: null and undefined left out, arrays as repeated keys. */
export function queryStringOf(payload: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(payload)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) value.forEach((item) => params.append(key, String(item)));
    else params.append(key, String(value));
  }
  return params.toString();
}

function formDataOf(payload: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(payload)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) value.forEach((item) => form.append(key, item instanceof Blob ? item : String(item)));
    else form.append(key, value instanceof Blob ? value : String(value));
  }
  return form;
}

/** Multipart bytes and their content type, as fetch would send them (inject needs the bytes). */
async function encodeForm(form: FormData): Promise<{ bytes: Buffer; contentType: string }> {
  const request = new Request('http://form.invalid/', { method: 'POST', body: form });
  return { bytes: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}

async function wireRequestOf(endpoint: Endpoint, input: Record<string, unknown>, headers: Record<string, string>): Promise<WireRequest> {
  const wire: WireRequest = { method: endpoint.method, url: endpoint.path, headers };
  switch (endpoint.payload) {
    case 'query': {
      const query = queryStringOf(input);
      if (query) wire.url += `?${query}`;
      break;
    }
    case 'json':
      headers['content-type'] ??= 'application/json';
      wire.body = JSON.stringify(input);
      break;
    case 'form': {
      const { bytes, contentType } = await encodeForm(formDataOf(input));
      headers['content-type'] ??= contentType;
      wire.body = bytes;
      break;
    }
    case 'none':
      break;
  }
  return wire;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function transportFor(target: ApiTarget): (request: WireRequest) => Promise<WireAnswer> {
  if (typeof target === 'string' || !('inject' in target)) {
    const baseUrl = typeof target === 'string' ? target : target.baseUrl;
    return async ({ method, url, headers, body }) => {
      // A Buffer is a Uint8Array; the DOM typings (the e2e project's) only narrow its ArrayBuffer type.
      const init: RequestInit & { duplex?: 'half' } = { method, headers, body: body as RequestInit['body'] };
      if (body instanceof ReadableStream) init.duplex = 'half';
      const response = await fetch(`${baseUrl}${url}`, init);
      return { status: response.status, headers: response.headers, text: await response.text() };
    };
  }
  return async ({ method, url, headers, body }) => {
    const payload = body instanceof ReadableStream ? Readable.fromWeb(body as NodeReadableStream<Uint8Array>) : body;
    const response = await target.inject({ method: method as 'GET', url, headers, ...(payload === undefined ? {} : { payload }) });
    const answerHeaders = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) answerHeaders.append(name, String(item));
    }
    return { status: response.statusCode, headers: answerHeaders, text: response.body };
  };
}
