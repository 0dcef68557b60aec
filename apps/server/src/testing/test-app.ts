import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { makeEnv, type Env } from '../env';
import type { DatabaseHandle } from '../db/client';
import type { CorpConfigEntry } from '../corps';

export interface RunningTestApp {
  app: FastifyInstance;
  baseUrl: string;
  close(): Promise<void>;
}

/** The real app on a real port, on the given database, with the WeCom emulator mounted. */
export async function startTestApp(
  database: DatabaseHandle,
  overrides: Partial<Record<keyof Env, string>> = {},
  options: { corps?: CorpConfigEntry[] } = {},
): Promise<RunningTestApp> {
  const env = makeEnv({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    WEB_DIST_DIR: '',
    MOT_SWEEP_INTERVAL_MS: '0',
    // Chosen, not defaulted: suites that trust a proxy would otherwise look like production (ADR 0016).
    WECOM_MODE: 'emulator',
    // Suites sign in and search far more often than a person does; the limits have their own tests.
    LOGIN_RATE_LIMIT: '100000',
    KYC_SEARCH_RATE_LIMIT: '100000',
    ...overrides,
  });
  const app = await buildApp({ env, database, ownsDatabase: false, logger: false, ...(options.corps ? { corps: options.corps } : {}) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return { app, baseUrl: `http://127.0.0.1:${port}`, close: () => app.close() };
}

export interface SignedIn {
  token: string;
  headers: Record<string, string>;
}

/**
 * Signs in as an emulator staff member through the real OAuth round trip: authorise page →
 * redirect with code → /api/auth/login/qywx.
 */
export async function signInAs(
  baseUrl: string,
  userid = 'chanwaiman',
  options: {
    corpCode?: string;
    agentCode?: string;
    /** Where WeCom lives, when not this server's own emulator. */ wecomBaseUrl?: string;
  } = {},
): Promise<SignedIn> {
  const { corpCode = 'fxhl', agentCode = 'khzl', wecomBaseUrl = `${baseUrl}/wecom` } = options;
  const config = (await (await fetch(`${baseUrl}/api/auth/corpConfig?corpCode=${corpCode}`)).json()) as {
    data: { corpId: string; agents: { agentCode: string; agentId: string }[] };
  };
  const agentId = config.data.agents.find((agent) => agent.agentCode === agentCode)?.agentId ?? '';
  const authorize = new URL(`${wecomBaseUrl}/connect/oauth2/authorize/confirm`);
  authorize.search = new URLSearchParams({
    appid: config.data.corpId,
    redirect_uri: `${baseUrl}/wxEntry`,
    response_type: 'code',
    scope: 'snsapi_privateinfo',
    state: 'test',
    agentid: agentId,
    userid,
  }).toString();
  const redirect = await fetch(authorize, { redirect: 'manual' });
  const code = new URL(redirect.headers.get('location') ?? '').searchParams.get('code');
  if (!code) throw new Error(`emulator gave no code (HTTP ${redirect.status})`);
  const login = await fetch(`${baseUrl}/api/auth/login/qywx?code=${encodeURIComponent(code)}`, {
    headers: { 'corp-code': corpCode, 'agent-code': agentCode },
  });
  const body = (await login.json()) as { code: string; msg: string; data: { token: string } };
  if (body.code !== '0') throw new Error(`login failed: ${body.code} ${body.msg}`);
  return { token: body.data.token, headers: { 'corp-code': corpCode, 'agent-code': agentCode, 'broker-token': body.data.token } };
}
