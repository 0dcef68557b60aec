/**
 * Every code the API answers with, and the HTTP status it travels with. `"0"` is success; `080000`/`080001` are fixed
 * by the product (docs/spec.md §8), the other six-digit codes are ours.
 */
const CODES = {
  OK: ['0', 200],
  LOGIN_EXPIRED: ['080000', 401],
  LOGIN_INVALID: ['080001', 401],
  LOGIN_CODE_INVALID: ['080002', 401],
  LOGIN_STAFF_UNKNOWN: ['080003', 403],
  /** Too many sign-in attempts from one client address; `Retry-After` says when to try again. */
  LOGIN_RATE_LIMITED: ['080429', 429],
  VALIDATION: ['090400', 400],
  FORBIDDEN: ['090403', 403],
  NOT_FOUND: ['090404', 404],
  METHOD_NOT_ALLOWED: ['090405', 405],
  CONFLICT: ['090409', 409],
  PAYLOAD_TOO_LARGE: ['090413', 413],
  UNSUPPORTED_MEDIA_TYPE: ['090415', 415],
  RATE_LIMITED: ['090429', 429],
  INTERNAL: ['090500', 500],
  UPSTREAM_WECOM: ['090502', 502],
  UNAVAILABLE: ['090503', 503],
  /** `agent-code` names an app the endpoint does not belong to (docs/spec.md §7); the msg names the expected one (ADR 0015). */
  AGENT_MISMATCH: ['090701', 403],
  KYC_CONTACT_ALREADY_BOUND: ['091001', 409],
  KYC_CUSTOMER_ALREADY_BOUND: ['091002', 409],
  KYC_NOT_FOLLOWING: ['091003', 403],
  /** No longer sent: an unknown contact is answered 091003, like one the caller does not follow (ADR 0015). */
  KYC_CONTACT_UNKNOWN: ['091004', 404],
  KYC_NOT_BOUND: ['091005', 404],
  /** Too many KYC searches by one staff member; `Retry-After` says when to try again. */
  KYC_SEARCH_RATE_LIMITED: ['091429', 429],
  /** Too many phone numbers revealed or dialled by one staff member; `Retry-After` says when to try again (ADR 0039). */
  PHONE_REVEAL_RATE_LIMITED: ['094429', 429],
  // WeCom refused for a reason an admin causes or WeCom names (ADR 0017): the msg says who can fix it; WeCom's errmsg is logged.
  /** 60020: this server's address is not in the app's 企业可信IP. */
  WECOM_IP_NOT_TRUSTED: ['092501', 502],
  /** 48002: the app may not call this API (e.g. not listed under 客户联系 → 可调用接口的应用). */
  WECOM_API_FORBIDDEN: ['092502', 502],
  /** 45009: WeCom's frequency limit; the server backs off, `Retry-After` says for how long. */
  WECOM_RATE_LIMITED: ['092503', 503],
  /** 50001: the sign-in's redirect is not the app's trusted domain (可信域名). */
  WECOM_REDIRECT_UNTRUSTED: ['092504', 502],
  /** -1: WeCom busy, still after retries; `Retry-After` says when to try again. */
  WECOM_BUSY: ['092505', 503],
  /** 41008: no OAuth code reached WeCom. */
  WECOM_CODE_MISSING: ['092506', 400],
  /** 40001/40014/42001 and kin: WeCom rejected the access token, still after one refresh. */
  WECOM_TOKEN_REJECTED: ['092507', 502],
  /** gettoken refused the corp id or the app's secret (CORPS_FILE is wrong). */
  WECOM_CREDENTIALS_INVALID: ['092508', 502],
  /** 60011: the member is outside the app's visible range (可见范围). */
  WECOM_NOT_VISIBLE: ['092509', 403],
  /** 40056/301002: the agentId in CORPS_FILE is not the app its secret belongs to. */
  WECOM_AGENT_MISMATCH: ['092510', 502],
  /** 84061: no follow relation between the corp and this external contact. */
  WECOM_NOT_EXTERNAL_CONTACT: ['092511', 404],
  /** 40096: the external userid is not a valid one. */
  WECOM_EXTERNAL_USERID_INVALID: ['092512', 400],
  /** WeCom callback: msg_signature does not match the corp's callback Token (forged, or the Token is mis-set). */
  WECOM_CALLBACK_SIGNATURE_INVALID: ['093001', 403],
  /** WeCom callback: the payload does not decrypt with the corp's EncodingAESKey, or was sealed for another corp. */
  WECOM_CALLBACK_UNDECRYPTABLE: ['093002', 400],
  /** WeCom callback: no such corp, or the corp has no callback Token / EncodingAESKey configured. */
  WECOM_CALLBACK_NOT_CONFIGURED: ['093003', 404],
  /** WeCom callback: the signed timestamp is outside the accepted window (a replay). */
  WECOM_CALLBACK_EXPIRED: ['093004', 400],
  /** The code came without this browser's sign-in state, or that sign-in expired or was used: never exchanged (ADR 0011). */
  LOGIN_STATE_INVALID: ['080004', 401],
  /** No live session is bound to this browser's cookie: the page signs in through WeCom instead. */
  SESSION_NOT_RESUMABLE: ['080005', 401],
  // Answers given before any handler runs (ADR 0014): what was wrong with the connection or the bytes, never a 5xx.
  /** Headers or body not received in full within the server's time limits; the connection is closed. */
  REQUEST_TIMEOUT: ['090601', 408],
  /** The request's headers together exceed the server's limit. */
  HEADERS_TOO_LARGE: ['090602', 431],
  /** Not HTTP/1.1 the server can read: a malformed request line, header or chunked body. */
  HTTP_MALFORMED: ['090603', 400],
  /** A JSON body that does not parse, or is empty. */
  JSON_MALFORMED: ['090604', 400],
  /** Text in the body that is not valid UTF-8; the msg names the field holding it. */
  TEXT_NOT_UTF8: ['090605', 400],
  /** A multipart/form-data body that cannot be read: boundary missing or too long, truncated, broken part. */
  FORM_MALFORMED: ['090606', 400],
  /** A form beyond its limits: too many fields or parts, a field too long, any file. */
  FORM_TOO_LARGE: ['090607', 413],
  /** The body's length does not match its content-length. */
  CONTENT_LENGTH_MISMATCH: ['090608', 400],
  /** The URL cannot be decoded. */
  URL_MALFORMED: ['090609', 400],
  /** No route answers this method and path (as opposed to 090404, a record that does not exist). */
  NO_SUCH_ENDPOINT: ['090610', 404],
} as const;

export const ErrorCode = Object.fromEntries(Object.entries(CODES).map(([name, [code]]) => [name, code])) as {
  readonly [Name in keyof typeof CODES]: (typeof CODES)[Name][0];
};

export type ErrorCodeName = keyof typeof ErrorCode;
export type ErrorCodeValue = (typeof ErrorCode)[ErrorCodeName];

export const httpStatusOf = Object.fromEntries(Object.values(CODES)) as Record<ErrorCodeValue, number>;

/** What any call to WeCom can fail with (ADR 0017): an endpoint calling WeCom declares these and its call's own refusals. */
export const WECOM_FAILURE_CODES = [
  ErrorCode.UPSTREAM_WECOM,
  ErrorCode.WECOM_IP_NOT_TRUSTED,
  ErrorCode.WECOM_API_FORBIDDEN,
  ErrorCode.WECOM_RATE_LIMITED,
  ErrorCode.WECOM_REDIRECT_UNTRUSTED,
  ErrorCode.WECOM_BUSY,
  ErrorCode.WECOM_TOKEN_REJECTED,
  ErrorCode.WECOM_CREDENTIALS_INVALID,
  ErrorCode.WECOM_AGENT_MISMATCH,
] as const;

/** The session has ended: any authenticated endpoint can answer these (ADR 0022). */
export const SESSION_ENDED_CODES: readonly ErrorCodeValue[] = [ErrorCode.LOGIN_EXPIRED, ErrorCode.LOGIN_INVALID];
/** Codes after which the web app must drop its token and sign in again (docs/spec.md §4): the same list, read as text. */
export const RELOGIN_CODES: readonly string[] = SESSION_ENDED_CODES;
