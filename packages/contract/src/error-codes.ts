/**
 * Every code the API answers with. `"0"` is success; the rest are six-digit strings.
 * `080000`/`080001` are fixed by the product (SPEC.md §8); the others are ours.
 * Each code carries the HTTP status it travels with so server and tests agree.
 */
export const ErrorCode = {
  OK: '0',
  LOGIN_EXPIRED: '080000',
  LOGIN_INVALID: '080001',
  LOGIN_CODE_INVALID: '080002',
  LOGIN_STAFF_UNKNOWN: '080003',
  /** Too many sign-in attempts from one client address; `Retry-After` says when to try again. */
  LOGIN_RATE_LIMITED: '080429',
  VALIDATION: '090400',
  FORBIDDEN: '090403',
  NOT_FOUND: '090404',
  METHOD_NOT_ALLOWED: '090405',
  CONFLICT: '090409',
  PAYLOAD_TOO_LARGE: '090413',
  UNSUPPORTED_MEDIA_TYPE: '090415',
  RATE_LIMITED: '090429',
  INTERNAL: '090500',
  UPSTREAM_WECOM: '090502',
  UNAVAILABLE: '090503',
  KYC_CONTACT_ALREADY_BOUND: '091001',
  KYC_CUSTOMER_ALREADY_BOUND: '091002',
  KYC_NOT_FOLLOWING: '091003',
  KYC_CONTACT_UNKNOWN: '091004',
  KYC_NOT_BOUND: '091005',
  /** Too many KYC searches by one staff member; `Retry-After` says when to try again. */
  KYC_SEARCH_RATE_LIMITED: '091429',
  /**
   * The code arrived without the state this browser started its sign-in with (its cookie), or that
   * sign-in expired or was used: never exchanged (login CSRF, ADR 0011).
   */
  LOGIN_STATE_INVALID: '080004',
  /** No live session is bound to this browser's cookie: the page signs in through WeCom instead. */
  SESSION_NOT_RESUMABLE: '080005',
} as const;

export type ErrorCodeName = keyof typeof ErrorCode;
export type ErrorCodeValue = (typeof ErrorCode)[ErrorCodeName];

export const httpStatusOf: Record<ErrorCodeValue, number> = {
  '0': 200,
  '080000': 401,
  '080001': 401,
  '080002': 401,
  '080003': 403,
  '080429': 429,
  '090400': 400,
  '090403': 403,
  '090404': 404,
  '090405': 405,
  '090409': 409,
  '090413': 413,
  '090415': 415,
  '090429': 429,
  '090500': 500,
  '090502': 502,
  '090503': 503,
  '091001': 409,
  '091002': 409,
  '091003': 403,
  '091004': 404,
  '091005': 404,
  '091429': 429,
  '080004': 401,
  '080005': 401,
};

/** Codes after which the web app must drop its token and sign in again (SPEC.md §4). */
export const RELOGIN_CODES: readonly string[] = [ErrorCode.LOGIN_EXPIRED, ErrorCode.LOGIN_INVALID];
