import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { buildApp } from '../app';
import { makeEnv, type Env } from '../env';
import type { Tuning } from '../tuning';
import type { DatabaseHandle } from '../db/client';
import type { CorpConfigEntry } from '../corps';
import type { AppLanguage, LoginResult, SignInStart } from '@broker/contract';
import { BrowserJar } from './browser-jar';
import { apiClient, isOk, type ApiAnswer } from './api-client';
import { TEST_HEALTH_DETAIL_TOKEN } from './health-detail';

export interface RunningTestApp {
  app: FastifyInstance;
  baseUrl: string;
  close(): Promise<void>;
}

/** The real app on a real port, on the given database, with the WeCom emulator mounted. */
export async function startTestApp(
  database: DatabaseHandle,
  overrides: Partial<Record<keyof Env, string>> = {},
  options: {
    corps?: CorpConfigEntry[];
    /** Log lines go here (at LOG_LEVEL) instead of nowhere. */ logStream?: DestinationStream;
    /** Values no deployer turns, changed for this test (tuning.ts). */ tuning?: Partial<Tuning>;
  } = {},
): Promise<RunningTestApp> {
  const env = makeEnv({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    WEB_DIST_DIR: '',
    // Chosen, not defaulted: suites that trust a proxy would otherwise look like production (ADR 0016).
    WECOM_MODE: 'emulator',
    // Suites sign in and search far more often than a person does; the limits have their own tests.
    LOGIN_RATE_LIMIT: '100000',
    KYC_SEARCH_RATE_LIMIT: '100000',
    PHONE_REVEAL_RATE_LIMIT: '100000',
    // What monitoring presents to read /readyz's details (healthDetailHeaders).
    HEALTH_DETAIL_TOKEN: TEST_HEALTH_DETAIL_TOKEN,
    ...overrides,
  });
  const app = await buildApp({
    env,
    database,
    ownsDatabase: false,
    ...(options.logStream ? { logStream: options.logStream } : { logger: false }),
    // An error code an endpoint does not declare fails the test that meets it (ADR 0022).
    refuseUndeclaredErrorCodes: true,
    // A value that strays from the contract at run time (a null where a number is promised) fails the suite (ADR 0033).
    checkResponses: true,
    ...(options.corps ? { corps: options.corps } : {}),
    tuning: {
      motSweepIntervalMs: 0,
      // Suites dispatch MOT cards themselves (motPush.dispatchNow) when they mean to.
      motPushIntervalMs: 0,
      // Suites fill search terms themselves (fillAllSearchTerms) when they mean to: a background write would bump books mid-test.
      searchTermsFillPauseMs: 0,
      ...options.tuning,
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return { app, baseUrl: `http://127.0.0.1:${port}`, close: () => app.close() };
}

export interface SignedIn {
  token: string;
  /** Everything a business call needs: corp-code, agent-code, broker-token and the browser's cookie. */
  headers: Record<string, string>;
  /** The test browser's cookies (the session's binding cookie), for tests that play with them. */
  jar: BrowserJar;
  login: LoginResult;
}

/**
 * Step 1 of a sign-in, as the page does it: the server records it and sets the sign-in cookie in `jar`.
 * Any `agentCode` goes, so that a test can start one for an app that does not exist.
 */
export async function startSignInAt(
  baseUrl: string,
  options: { jar: BrowserJar; corpCode?: string; agentCode?: string; redirectPage?: string; relauchType?: string },
): Promise<ApiAnswer<SignInStart>> {
  const { jar, corpCode = 'fxhl', agentCode = 'khzl', redirectPage = '/client/manage/list', relauchType } = options;
  const client = apiClient(baseUrl, { corp: corpCode, cookies: jar });
  return (await client.call('startSignIn', { agentCode, redirectPage, ...(relauchType ? { relauchType } : {}) })) as ApiAnswer<SignInStart>;
}

/**
 * Step 2: the staff member `userid` picks themselves on the emulated authorise page; WeCom redirects
 * to the return address with `code` and `state`. `wecomBaseUrl` replaces the URL's own emulator
 * (a standalone one shared by replicas).
 */
export async function authorizeAs(
  authorizeUrl: string,
  userid: string,
  wecomBaseUrl?: string,
): Promise<{ code: string; state: string; returnUrl: URL }> {
  const authorize = new URL(authorizeUrl);
  const confirm = new URL(
    wecomBaseUrl
      ? `${wecomBaseUrl.replace(/\/$/, '')}/connect/oauth2/authorize/confirm`
      : `${authorize.origin}${authorize.pathname}/confirm`,
  );
  confirm.search = authorize.search;
  confirm.searchParams.set('userid', userid);
  const redirect = await fetch(confirm, { redirect: 'manual' });
  const returnUrl = new URL(redirect.headers.get('location') ?? 'about:blank');
  const code = returnUrl.searchParams.get('code');
  if (!code) throw new Error(`emulator gave no code (HTTP ${redirect.status})`);
  return { code, state: returnUrl.searchParams.get('state') ?? '', returnUrl };
}

/** Step 3, as /wxEntry does it: the code and state go to the server with the browser's cookies. */
export function exchangeCode(
  baseUrl: string,
  options: { jar: BrowserJar; code: string; state: string; corpCode?: string; language?: AppLanguage },
): Promise<ApiAnswer<LoginResult>> {
  const { jar, code, state, corpCode = 'fxhl', language } = options;
  return apiClient(baseUrl, { corp: corpCode, cookies: jar }).loginQywx({ code, state, ...(language ? { language } : {}) });
}

/**
 * Signs in as an emulator staff member through the real round trip, the way the app does it:
 * start (server records the sign-in, sets its cookie) → authorise page → redirect with code and
 * state → /api/auth/login/qywx with the cookie (sets the browser-binding cookie).
 */
export async function signInAs(
  baseUrl: string,
  userid = 'chanwaiman',
  options: {
    corpCode?: string;
    agentCode?: string;
    /** Where WeCom lives, when not this server's own emulator. */ wecomBaseUrl?: string;
    /** Sign in inside this test browser (its cookies), e.g. to play a second staff member on a shared PC. */ jar?: BrowserJar;
    /** The language the page sends with the code (the app's; none: the stored one stays). */ language?: AppLanguage;
  } = {},
): Promise<SignedIn> {
  const { corpCode = 'fxhl', agentCode = 'khzl', wecomBaseUrl, jar = new BrowserJar(), language } = options;
  const started = await startSignInAt(baseUrl, { jar, corpCode, agentCode });
  if (!isOk(started)) throw new Error(`sign-in start failed: ${started.body.code} ${started.body.msg}`);
  const { code, state } = await authorizeAs(started.body.data.authorizeUrl, userid, wecomBaseUrl);
  const login = await exchangeCode(baseUrl, { jar, code, state, corpCode, ...(language ? { language } : {}) });
  if (!isOk(login)) throw new Error(`login failed: ${login.body.code} ${login.body.msg}`);
  const token = login.body.data.token;
  return {
    token,
    jar,
    login: login.body.data,
    headers: { 'corp-code': corpCode, 'agent-code': agentCode, 'broker-token': token, ...jar.headers() },
  };
}
