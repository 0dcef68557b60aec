import { encodeRequest } from '@broker/contract/request-encoding';
import { RELOGIN_CODES, type RequestOf, type ResponseOf, type WireEndpoint } from './contract';
import { getAppSettings } from '../session/app-settings-store';
import { useUser } from '../session/user-store';
import { i18n } from '../i18n/i18n';
import { ApiError, ClientErrorCode } from './api-error';
import { showToast } from './toast';
import { announceSessionInvalid } from './session-events';
import { reportProblem } from '../tracing/tracing';
import type * as ResponseCheck from './response-check';

export interface RequestOptions {
  /** Opt out of the automatic failure toast (the caller handles the error itself). */
  silent?: boolean;
  signal?: AbortSignal;
  /** `false`: 080000/080001 only reject; the caller handles an ended session itself (sign-out). */
  relogin?: boolean;
}

/**
 * Calls one contract endpoint; resolves `data` when `code === "0"`, else rejects with an ApiError (toasted unless silent;
 * 080000/080001 announce "session invalid"). `data` is checked against the response schema (STYLE.md rule 1): a mismatch
 * rejects with BAD_RESPONSE and is reported, never used. The payload is the server's to validate.
 */
export async function request<E extends WireEndpoint>(
  endpoint: E,
  payload: RequestOf<E>,
  options: RequestOptions = {},
): Promise<ResponseOf<E>> {
  const quiet = Boolean(endpoint.silent || options.silent);
  const fail = (error: ApiError): never => {
    if (!quiet) showToast(error.message);
    throw error;
  };

  const wire = encodeRequest(endpoint, payload ?? {}, { corp: getAppSettings().corpCode, token: useUser.getState().token });
  // The response checker, compiled at build time (a lazy chunk, ADR 0023), loads beside the call, so a first call waits for no
  // extra round trip; null when it cannot be fetched (a network failure).
  const checking = responseCheckModule().then(
    (module) => module.responseMismatch,
    () => null,
  );

  let body: unknown;
  /** Seconds a rate-limited call (HTTP 429) should wait, as the server's Retry-After says. */
  let retryAfter: string | null = null;
  try {
    const { method, headers, body: sent } = wire;
    const response = await fetch(wire.url, { method, headers, body: sent, signal: options.signal, credentials: 'same-origin' });
    retryAfter = response.headers.get('retry-after');
    body = await response.json();
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return fail(new ApiError(ClientErrorCode.NETWORK, i18n.t('errors.network'), endpoint.path));
  }

  const envelope = body as { code?: unknown; msg?: unknown; data?: unknown } | null;
  if (!envelope || typeof envelope.code !== 'string')
    return fail(new ApiError(ClientErrorCode.BAD_RESPONSE, i18n.t('errors.badResponse'), endpoint.path));
  if (envelope.code !== '0') {
    const serverMessage = typeof envelope.msg === 'string' && envelope.msg ? envelope.msg : i18n.t('errors.unknown');
    const message = (await localizedMessageOf(envelope.code, retryAfter)) ?? serverMessage;
    const error = new ApiError(envelope.code, message, endpoint.path);
    if (RELOGIN_CODES.includes(envelope.code)) {
      if (options.relogin !== false) announceSessionInvalid();
      throw error;
    }
    return fail(error);
  }
  const responseMismatch = await checking;
  if (!responseMismatch) return fail(new ApiError(ClientErrorCode.NETWORK, i18n.t('errors.network'), endpoint.path));
  const mismatch = responseMismatch(endpoint, envelope.data);
  if (mismatch !== undefined) {
    const error = new ApiError(ClientErrorCode.BAD_RESPONSE, i18n.t('errors.badResponse'), endpoint.path, mismatch);
    reportProblem(error, `${endpoint.method} ${endpoint.path}: ${mismatch}`);
    return fail(error);
  }
  return envelope.data as ResponseOf<E>;
}

let responseCheck: Promise<typeof ResponseCheck> | null = null;
/** The checker's chunk, fetched once; a failed fetch is forgotten so the next call retries (some webviews remember a failed import). */
function responseCheckModule() {
  responseCheck ??= import('./response-check').catch((error: unknown) => {
    responseCheck = null;
    throw error;
  });
  return responseCheck;
}

/** The localized words for an error code: needed only once something failed, so off the first screen (else the server's msg). */
async function localizedMessageOf(code: string, retryAfter: string | null): Promise<string | null> {
  try {
    const { localizedErrorMessage } = await import('./error-messages');
    return localizedErrorMessage(code, { retryAfter });
  } catch {
    return null;
  }
}
