import { ErrorCode, type ErrorCodeValue } from '@broker/contract';
import { ApiError } from '../http/api-error';

/** Or no usable answer at all (errcode -1, `unreachable`). */
export class WecomApiError extends Error {
  constructor(
    readonly errcode: number,
    readonly errmsg: string,
    readonly path: string,
    /** WeCom gave no answer (network, timeout, HTTP error). */
    readonly unreachable = false,
  ) {
    super(`WeCom ${path} answered errcode ${errcode}: ${errmsg}`);
    this.name = 'WecomApiError';
  }
}

/** The client refuses to call WeCom until the back-off ends. */
export class WecomBackoffError extends WecomApiError {
  constructor(
    errmsg: string,
    path: string,
    readonly retryAfterSeconds: number,
  ) {
    super(45009, errmsg, path);
    this.name = 'WecomBackoffError';
  }
}

/** Drop the token, fetch a new one, retry once (40001 at gettoken is the secret). */
export const STALE_TOKEN_ERRCODES: ReadonlySet<number> = new Set([40001, 40014, 42001]);

export interface WecomProblem {
  /** For logs, the probe and /readyz. */
  name: string;
  /** `app`: every user is affected (health turns degraded); `request`: this one call. */
  scope: 'app' | 'request';
  code: ErrorCodeValue;
  /** What happened and who can fix it, no internals. */
  clientMessage: string;
  adminFix: string;
}

const AGENT_MISMATCH: WecomProblem = {
  name: 'agent-mismatch',
  scope: 'app',
  code: ErrorCode.WECOM_AGENT_MISMATCH,
  clientMessage: 'This WeCom app is set up wrongly on the server; please tell your administrator',
  adminFix: 'the agentId in CORPS_FILE is not the app its secret belongs to: copy AgentId and Secret from the same app',
};

/** Every errcode we can meet, named (ADR 0017), from WeCom's 全局错误码 page and the API pages cited. */
const PROBLEMS: Record<string, WecomProblem> = {
  60020: {
    name: 'ip-not-trusted',
    scope: 'app',
    code: ErrorCode.WECOM_IP_NOT_TRUSTED,
    clientMessage: 'WeCom refused this server’s address; please tell your WeCom administrator (trusted IPs)',
    adminFix: 'add the "from ip" to the app’s 企业可信IP (应用管理 → the app → 企业可信IP), for every replica’s egress address',
  },
  48002: {
    name: 'api-forbidden',
    scope: 'app',
    code: ErrorCode.WECOM_API_FORBIDDEN,
    clientMessage: 'This WeCom app is not allowed to use this function; please tell your WeCom administrator',
    adminFix: 'list the app under 客户联系 → API → 可调用接口的应用 (externalcontact needs it)',
  },
  45009: {
    name: 'frequency-limit',
    scope: 'app',
    code: ErrorCode.WECOM_RATE_LIMITED,
    clientMessage: 'WeCom is limiting requests right now; please try again in a minute',
    adminFix: 'WeCom’s call-frequency limit: the server backs off; if it recurs, look for a caller outside this server using the same app',
  },
  50001: {
    name: 'redirect-untrusted',
    scope: 'app',
    code: ErrorCode.WECOM_REDIRECT_UNTRUSTED,
    clientMessage: 'WeCom did not accept this sign-in page; please tell your WeCom administrator (trusted domain)',
    adminFix: 'set the app’s 可信域名 (网页授权及JS-SDK) to this server’s host:port, and open each app from its own home page',
  },
  [-1]: {
    name: 'system-busy',
    scope: 'app',
    code: ErrorCode.WECOM_BUSY,
    clientMessage: 'WeCom is busy; please try again shortly',
    adminFix: 'WeCom answered "system busy" (-1) after retries; nothing to change unless it persists',
  },
  41008: {
    name: 'code-missing',
    scope: 'request',
    code: ErrorCode.WECOM_CODE_MISSING,
    clientMessage: 'query.code: no sign-in code reached WeCom; please sign in again',
    adminFix: 'none: a client sent no OAuth code',
  },
  40029: {
    name: 'code-invalid',
    scope: 'request',
    code: ErrorCode.LOGIN_CODE_INVALID,
    clientMessage: 'query.code: the sign-in code is invalid, expired or already used; please sign in again',
    adminFix: 'none: a code lives five minutes and is single-use (40029)',
  },
  40163: {
    name: 'code-used',
    scope: 'request',
    code: ErrorCode.LOGIN_CODE_INVALID,
    clientMessage: 'query.code: the sign-in code was already used; please sign in again',
    adminFix: 'none: a code is single-use (40163)',
  },
  60011: {
    name: 'outside-visible-range',
    scope: 'request',
    code: ErrorCode.WECOM_NOT_VISIBLE,
    clientMessage: 'You are not in this WeCom app’s visible range; please ask your WeCom administrator to add you',
    adminFix: 'add the member (or their department) to the app’s 可见范围',
  },
  40056: AGENT_MISMATCH,
  301002: AGENT_MISMATCH,
  84061: {
    name: 'not-external-contact',
    scope: 'request',
    code: ErrorCode.WECOM_NOT_EXTERNAL_CONTACT,
    clientMessage: 'externalUserId: WeCom has no follow relation with this contact',
    adminFix: 'none: the contact is not (or no longer) a customer of a member in the app’s visible range',
  },
  60111: {
    name: 'not-a-member',
    scope: 'request',
    code: ErrorCode.LOGIN_STAFF_UNKNOWN,
    clientMessage: 'WeCom does not know you as a member of this corp; please sign in with your WeCom work account',
    adminFix: 'none: a WeChat user outside the corp opened the app',
  },
  40096: {
    name: 'external-userid-invalid',
    scope: 'request',
    code: ErrorCode.WECOM_EXTERNAL_USERID_INVALID,
    clientMessage: 'externalUserId: not a valid WeCom external contact id',
    adminFix: 'none: the id did not come from this corp’s WeCom',
  },
};

const TOKEN_REJECTED: WecomProblem = {
  name: 'token-rejected',
  scope: 'app',
  code: ErrorCode.WECOM_TOKEN_REJECTED,
  clientMessage: 'WeCom rejected this server’s credentials; please try again shortly',
  adminFix: 'WeCom rejected a fresh access token too: was the app’s secret reset? update CORPS_FILE',
};

/** gettoken's own (document/path/91039): the corp id or the app's secret is wrong. */
const CREDENTIALS_INVALID: WecomProblem = {
  name: 'credentials-invalid',
  scope: 'app',
  code: ErrorCode.WECOM_CREDENTIALS_INVALID,
  clientMessage: 'This WeCom app is set up wrongly on the server; please tell your administrator',
  adminFix: 'corpId or the app’s secret in CORPS_FILE is wrong: copy them from 我的企业 → 企业ID and 应用管理 → the app → Secret',
};
const GETTOKEN_ERRCODES = new Set([40001, 40013, 40091, 41002, 41004]);

const UNREACHABLE: WecomProblem = {
  name: 'unreachable',
  scope: 'app',
  code: ErrorCode.UPSTREAM_WECOM,
  clientMessage: 'WeCom could not be reached; please try again shortly',
  adminFix: 'check this server’s outbound access to WECOM_API_BASE (DNS, firewall, proxy)',
};

const UNKNOWN: WecomProblem = {
  name: 'unexpected-errcode',
  scope: 'request',
  code: ErrorCode.UPSTREAM_WECOM,
  clientMessage: 'WeCom refused the request; please try again shortly',
  adminFix: 'look the errcode up at https://open.work.weixin.qq.com/devtool/query?e=<errcode>',
};

export function wecomProblemOf(error: WecomApiError): WecomProblem {
  if (error.unreachable) return UNREACHABLE;
  if (error.path.endsWith('/gettoken') && GETTOKEN_ERRCODES.has(error.errcode)) return CREDENTIALS_INVALID;
  if (STALE_TOKEN_ERRCODES.has(error.errcode) || error.errcode === 41001) return TOKEN_REJECTED;
  return PROBLEMS[error.errcode] ?? UNKNOWN;
}

/** `hint: [trace id]` and `from ip: a.b.c.d`, kept for the log. */
export function errmsgDetails(errmsg: string): { hint: string | null; fromIp: string | null } {
  return {
    hint: /hint:\s*\[([^\]]+)\]/.exec(errmsg)?.[1] ?? null,
    fromIp: /from ip:\s*([0-9a-fA-F:.]+)/.exec(errmsg)?.[1] ?? null,
  };
}

/** `wecom` is enumerable, so the error log carries WeCom's words; the client sees the code and `clientMessage`. */
export class WecomFailure extends ApiError {
  constructor(
    problem: WecomProblem,
    readonly wecom: ReturnType<typeof failureDetail>,
  ) {
    super(problem.code, problem.clientMessage);
    this.name = 'WecomFailure';
  }
}

const RETRY_AFTER_SECONDS: Partial<Record<string, number>> = { 'frequency-limit': 60, 'system-busy': 5 };

function failureDetail(failure: WecomApiError, problem: WecomProblem) {
  const retryAfter = failure instanceof WecomBackoffError ? failure.retryAfterSeconds : RETRY_AFTER_SECONDS[problem.name];
  return {
    errcode: failure.errcode,
    errmsg: failure.errmsg,
    path: failure.path,
    problem: problem.name,
    adminFix: problem.adminFix,
    ...errmsgDetails(failure.errmsg),
    /** 45009 back-off, -1. */
    ...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {}),
  };
}

/** Auth, JS-SDK and KYC all use it. */
export function wecomFailure(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const failure =
    error instanceof WecomApiError ? error : new WecomApiError(-1, error instanceof Error ? error.message : 'no answer', 'request', true);
  const problem = wecomProblemOf(failure);
  return new WecomFailure(problem, failureDetail(failure, problem));
}
