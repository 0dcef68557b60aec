import { Readable } from 'node:stream';
import { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { FastifyInstance } from 'fastify';
import {
  DEFAULT_CORP_CODE,
  encodeRequest,
  endpoints,
  ErrorCode,
  HEADER_AGENT,
  HEADER_CORP,
  HEADER_TOKEN,
  queryStringOf,
  requestHeaders,
  type Endpoint,
  type RequestCaller,
  type EndpointName,
  type ErrorCodeValue,
  type RequestOf,
  type ResponseOf,
} from '@broker/contract';
import { BrowserJar } from './browser-jar';

/**
 * The one way suites call the API. Typed from the contract (`endpoints`): one method per endpoint,
 * its input the request schema's input, its answer the envelope with `data` typed by the response
 * schema. Headers and payload are encoded as the web encodes them, by the contract's `encodeRequest`:
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
  body?: string | Uint8Array | FormData | ReadableStream<Uint8Array>;
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

  /** The corp, app and token of this caller for one call (an app named by the call wins). */
  const callerFor = (options: CallOptions): RequestCaller => ({
    corp: who.corp === undefined ? DEFAULT_CORP_CODE : who.corp,
    token: who.token ?? null,
    agent: options.agent !== undefined ? options.agent : who.agent,
  });
  /** What a browser adds to the encoded headers: its cookies, and the test's own headers (an app named by the call still wins). */
  const asBrowserSends = (headers: Record<string, string>, options: CallOptions) => {
    const cookie = who.cookies instanceof BrowserJar ? who.cookies.header() : who.cookies;
    if (cookie) headers.cookie = cookie;
    Object.assign(headers, who.headers, options.headers);
    if (options.agent === null) delete headers[HEADER_AGENT];
    else if (options.agent !== undefined) headers[HEADER_AGENT] = options.agent;
    return headers;
  };
  const headersFor = (endpoint: { agent?: string; auth?: boolean }, options: CallOptions = {}): Record<string, string> =>
    asBrowserSends(requestHeaders({ agent: endpoint.agent, auth: endpoint.auth ?? true }, callerFor(options)), options);

  const send = async (request: WireRequest) => {
    const answer = await transport(request);
    if (who.cookies instanceof BrowserJar) who.cookies.takeSetCookie(answer.headers.getSetCookie());
    return answer;
  };

  const call = async (endpointOrName: EndpointName | Endpoint, input: Record<string, unknown> = {}, options: CallOptions = {}) => {
    const endpoint = typeof endpointOrName === 'string' ? endpoints[endpointOrName] : endpointOrName;
    const { method, url, headers, body } = encodeRequest(endpoint, input, callerFor(options));
    asBrowserSends(headers, options);
    const answer = await send({ method, url, headers, body: body instanceof FormData ? await encodeForm(body, headers) : body });
    return { status: answer.status, headers: answer.headers, text: answer.text, body: parseJson(answer.text) as ApiEnvelope<unknown> };
  };

  const raw = async (endpoint: Parameters<ApiClient['raw']>[0], request: RawRequest = {}): Promise<RawAnswer> => {
    const target = typeof endpoint === 'string' ? { path: endpoint } : endpoint;
    const headers = headersFor({ agent: target.agent }, request);
    let body = request.body;
    if (body instanceof FormData) body = await encodeForm(body, headers);
    // Bytes as bytes: inject would send any other object as JSON.
    else if (body instanceof Uint8Array && !Buffer.isBuffer(body)) body = Buffer.from(body);
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
  body?: string | Uint8Array | ReadableStream<Uint8Array>;
}

interface WireAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * Multipart bytes, as fetch would send them (inject needs the bytes); their content type, with its
 * boundary, goes to `headers` unless the test set one.
 */
async function encodeForm(form: FormData, headers: Record<string, string>): Promise<Buffer> {
  const request = new Request('http://form.invalid/', { method: 'POST', body: form });
  headers['content-type'] ??= request.headers.get('content-type')!;
  return Buffer.from(await request.arrayBuffer());
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
    // Node's class (the global one): under the e2e project's DOM typings the global is the DOM's stream.
    const payload = body instanceof NodeReadableStream ? Readable.fromWeb(body) : body;
    const response = await target.inject({ method: method as 'GET', url, headers, ...(payload === undefined ? {} : { payload }) });
    const answerHeaders = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) answerHeaders.append(name, String(item));
    }
    return { status: response.statusCode, headers: answerHeaders, text: response.body };
  };
}
