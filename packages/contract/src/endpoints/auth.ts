import { z } from 'zod';
import { areaEndpoints } from '../endpoint';
import { ErrorCode, WECOM_FAILURE_CODES } from '../error-codes';
import { APP_TARGET_MAX_LENGTH, SIGN_IN_CODE_MAX_LENGTH, isSignInCodeText, safeAppTarget } from '../app-routes';
import { agentCodeSchema, corpCodeSchema } from '../headers';
import { appLanguageSchema, epochMsSchema } from '../common';

const authEndpoint = areaEndpoints({ agent: 'khzl', shared: true, tag: 'auth' });

export const loginResultSchema = z.object({
  token: z.string().min(1),
  onlineStaff: z.boolean(),
  /** Epoch milliseconds after which the token is refused with 080000. */
  tokenExpireTime: epochMsSchema,
  bd: z.boolean(),
  heco: z.boolean(),
  staffEmail: z.object({ email: z.string().nullable() }),
  /** The staff member's WeCom userid: whose drafts and page state the browser may show (ADR 0013). */
  userId: z.string(),
  staffName: z.string(),
});
export type LoginResult = z.infer<typeof loginResultSchema>;

/** WeCom returns `state` as given, letters and digits up to 128 bytes; the server's are 64 hex digits. */
export const signInStateSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(128, 'must be at most 128 characters')
  .regex(/^[A-Za-z0-9]+$/, 'must be letters and digits only');

/** The page to come back to after signing in: exactly what safeAppTarget (ADR 0013) makes of it, so only a hand-made request fails. */
export const returnPageSchema = z
  .string()
  .max(APP_TARGET_MAX_LENGTH, `must be at most ${APP_TARGET_MAX_LENGTH} characters`)
  .refine((page) => safeAppTarget(page) === page, 'must be a page of this app (a path of its route table, not /wxEntry)');

export const loginQywx = authEndpoint({
  method: 'GET',
  path: '/api/auth/login/qywx',
  auth: false,
  request: z.strictObject({
    code: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(SIGN_IN_CODE_MAX_LENGTH, `must be at most ${SIGN_IN_CODE_MAX_LENGTH} characters`)
      .refine(isSignInCodeText, 'must not contain control, format or space characters or a backslash (a WeCom code is URL-safe ASCII)'),
    /** The `state` WeCom handed back; must be the one this browser's sign-in started with (its cookie). */
    state: signInStateSchema,
    /** The language the app is shown in on this device: kept for the staff member's WeCom cards (ADR 0042). */
    language: appLanguageSchema.optional(),
  }),
  response: loginResultSchema,
  summary:
    'Exchange a WeCom OAuth code for a broker token. Needs the sign-in cookie set by startSignIn and its `state`; ' +
    "the code is exchanged with the access token of the agent that started the sign-in. Sets the browser's session cookie.",
  errors: [
    ErrorCode.LOGIN_STATE_INVALID,
    ErrorCode.LOGIN_CODE_INVALID,
    ErrorCode.LOGIN_STAFF_UNKNOWN,
    ErrorCode.LOGIN_RATE_LIMITED,
    ErrorCode.WECOM_CODE_MISSING,
    ErrorCode.WECOM_NOT_VISIBLE,
    ...WECOM_FAILURE_CODES,
  ],
});

export const signInStartSchema = z.object({
  /** WeCom's authorise page, with this app's `/wxEntry` as the return address. */
  authorizeUrl: z.string(),
  /** The state in that URL; the page keeps it to check what WeCom hands back. */
  state: signInStateSchema,
  /** Epoch milliseconds after which the sign-in must start again. */
  expiresAt: epochMsSchema,
});
export type SignInStart = z.infer<typeof signInStartSchema>;

/** Sign-in begins on the server: it records the agent and sets an HttpOnly cookie with a fresh state for loginQywx (ADR 0011). */
export const startSignIn = authEndpoint({
  method: 'POST',
  path: '/api/auth/login/start',
  auth: false,
  request: z.strictObject({
    /** The WeCom app whose home page the user opened: its token exchanges the code. */
    agentCode: agentCodeSchema,
    /** Where to land after signing in. */
    redirectPage: returnPageSchema,
    /** docs/spec.md §4: carried back to /wxEntry when given. */
    relauchType: z
      .string()
      .regex(/^[A-Za-z]{1,32}$/, 'must be 1-32 letters')
      .optional(),
  }),
  response: signInStartSchema,
  summary: "Begin a sign-in: WeCom's authorise URL for this corp and agent, and the browser's sign-in cookie",
  errors: [ErrorCode.LOGIN_RATE_LIMITED],
});

/** A browser holding its session cookie gets the token again without OAuth: WeCom's Mac sidebar empties localStorage (ADR 0012). */
export const resumeSession = authEndpoint({
  method: 'POST',
  path: '/api/auth/session/resume',
  auth: false,
  payload: 'none',
  request: z.strictObject({}),
  response: loginResultSchema,
  summary: "The token of the live session this browser's cookie is bound to (same staff member, same expiry; nothing new is minted)",
  errors: [ErrorCode.SESSION_NOT_RESUMABLE, ErrorCode.LOGIN_RATE_LIMITED],
  silent: true,
});

export const signOutResultSchema = z.object({
  /** How many sessions ended (0 when they had already ended). */
  endedSessions: z.number().int().nonnegative(),
});

export const signOut = authEndpoint({
  method: 'POST',
  path: '/api/auth/logout',
  payload: 'none',
  request: z.strictObject({}),
  response: signOutResultSchema,
  summary: 'Sign out on this device: ends every session of this browser and clears its session cookie',
});

export const signOutEverywhere = authEndpoint({
  method: 'POST',
  path: '/api/auth/logoutEverywhere',
  payload: 'none',
  request: z.strictObject({}),
  response: signOutResultSchema,
  summary: 'Sign out everywhere: ends every session of the caller, on every device',
});

export const corpConfigSchema = z.object({
  corpCode: corpCodeSchema,
  corpId: z.string(),
  corpName: z.string(),
  agents: z.array(z.object({ agentCode: agentCodeSchema, agentId: z.string() })),
  /** Base of WeCom's OAuth authorise page: `{oauthBase}/connect/oauth2/authorize`. */
  oauthBase: z.string(),
  /** True when the server talks to the local WeCom emulator instead of WeCom. */
  emulator: z.boolean(),
});

/** Public facts the web app needs before sign-in: corpId (wxAppId), agent ids, OAuth base. */
export const getCorpConfig = authEndpoint({
  method: 'GET',
  path: '/api/auth/corpConfig',
  auth: false,
  request: z.strictObject({ corpCode: corpCodeSchema }),
  response: corpConfigSchema,
  summary: 'Public sign-in configuration of a corp',
  errors: [ErrorCode.NOT_FOUND],
});
