import Fastify, { type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import multipart from '@fastify/multipart';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { SERVER_ROOT } from './server-root';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { responseSerializerCompiler } from './http/response-serializer';
import { HEADER_REQUEST_ID } from '@broker/contract';
import type { Env } from './env';
import { TUNING, type Tuning } from './tuning';
import { loadCorps, type CorpConfigEntry } from './corps';
import { SESSION_PROOF_TIMEOUT_MS, type DatabaseHandle } from './db/client';
import { startSearchTermsFill } from './db/search-terms';
import dbPlugin from './plugins/db.plugin';
import corpsPlugin from './plugins/corps.plugin';
import errorHandlerPlugin, { answerFrameworkError, sendNotFound } from './plugins/error-handler.plugin';
import wecomPlugin from './plugins/wecom.plugin';
import { mountWecomEmulator } from './wecom/emulator-mount';
import { IMPLIED_EMULATOR_NOTICE } from './wecom-mode-guard';
import openApiPlugin from './plugins/openapi.plugin';
import webStaticPlugin from './plugins/web-static.plugin';
import { API_COMPRESSION } from './http/compression';
import { FORM_LIMITS } from './http/form-body';
import { registerStrictJsonParser } from './http/json-body';
import { checkingIntervalMs, createClientErrorHandler, trackExchanges } from './http/client-error';
import { AccessLogController, REDACTED_LOG_PATHS, serializeRequestForLog } from './http/log-redaction';
import { fastifyTrustProxy } from './http/trust-proxy';
import securityHeadersPlugin from './plugins/security-headers.plugin';
import readRoutingPlugin from './plugins/read-routing.plugin';
import rateLimitPlugin from './plugins/rate-limit.plugin';
import { healthRoutes } from './modules/health';
import { authPlugin, authRoutes, carriesOwnSignInState } from './modules/auth';
import { jssdkRoutes, wecomDomainVerificationRoutes } from './modules/wecom';
import { settingsRoutes, staffRoutes } from './modules/staff';
import { clientRoutes } from './modules/client';
import { manageRoutes } from './modules/manage';
import { shortcutsRoutes } from './modules/shortcuts';
import { kycRoutes } from './modules/kyc';
import { BookIndexStore } from './modules/customer-search';
import { motRoutes, startMotScheduler, type MotScheduler } from './modules/mot';
import { announceSweep, motPushPlugin, motPushRoutes, parseQuietHours } from './modules/mot-push';
import { auditRoutes } from './modules/audit';
import { contactRoutes } from './modules/contact';
import { wecomCallbackRoutes } from './modules/wecom-callback';
import { registerContractRoutes, withOptions } from './http/endpoint-route';

export interface BuildAppOptions {
  env: Env;
  database: DatabaseHandle;
  /** False when a test shares one database across apps. */
  ownsDatabase?: boolean;
  corps?: CorpConfigEntry[];
  logger?: boolean;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: DestinationStream;
  /** Tests: answer 090500 for an error code the endpoint's contract does not declare (ADR 0022). */
  refuseUndeclaredErrorCodes?: boolean;
  /** Tests: check every response against its contract schema (ADR 0033). */
  checkResponses?: boolean;
  /** Tests and drills (tuning.ts, ADR 0059). */
  tuning?: Partial<Tuning>;
}

const DEFAULT_WEB_DIST = join(SERVER_ROOT, '..', 'web', 'dist');

/** What a process without a session of its own does not run, and what runs it instead. */
export function noSessionWarning(env: Pick<Env, 'DATABASE_DIRECT_URL'>): string {
  const where = env.DATABASE_DIRECT_URL ? 'DATABASE_DIRECT_URL' : 'DATABASE_URL';
  return (
    `no session advisory locks in this process: ${where} does not keep a session (a NOTIFY sent through DATABASE_URL ` +
    `did not reach a LISTEN on ${where} within ${SESSION_PROOF_TIMEOUT_MS} ms: a transaction-mode pooler?), and a lock and ` +
    'its unlock would land on different server connections. So it runs no MOT sweep and no first-start demo seed; ' +
    'a process with DATABASE_DIRECT_URL (the primary, or a session-mode pooler entry) runs them, or ' +
    '`npm run mot-sweep -- --database-url <direct URL>` from cron (ADR 0052)'
  );
}

/** Each module registered by hand, in the order it depends on. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { env } = options;
  const tuning = { ...TUNING, ...options.tuning };
  const corps = options.corps ?? loadCorps(env.CORPS_FILE);
  const limits = { headersTimeoutMs: tuning.httpHeadersTimeoutMs, requestTimeoutMs: tuning.httpRequestTimeoutMs };
  const app: FastifyInstance = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: env.LOG_LEVEL,
            // URLs keep only allowlisted query values: no phone, ID number, OAuth code or token in a log line.
            serializers: { req: serializeRequestForLog },
            redact: REDACTED_LOG_PATHS,
            ...(options.logStream ? { stream: options.logStream } : {}),
          },
    bodyLimit: tuning.bodyLimitBytes,
    // Slow and stalled connections are answered 090601 and closed (ADR 0014).
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: checkingIntervalMs(limits),
    },
    requestTimeout: limits.requestTimeoutMs,
    connectionTimeout: tuning.httpIdleTimeoutMs,
    keepAliveTimeout: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    clientErrorHandler: createClientErrorHandler(limits, () => app.log),
    frameworkErrors: answerFrameworkError,
    trustProxy: fastifyTrustProxy(env.TRUST_PROXY),
    requestIdHeader: HEADER_REQUEST_ID,
    genReqId: () => randomUUID(),
    return503OnClosing: true,
    logController: new AccessLogController(),
  });
  trackExchanges(app.server);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler({ checkResponses: options.checkResponses ?? false }));
  app.addHook('onSend', async (request, reply) => {
    reply.header(HEADER_REQUEST_ID, request.id);
  });

  await app.register(errorHandlerPlugin);
  await app.register(compress, API_COMPRESSION);
  // Forms within FORM_LIMITS (readFormBody); JSON strictly as UTF-8.
  await app.register(multipart, { limits: FORM_LIMITS });
  registerStrictJsonParser(app);
  await app.register(dbPlugin, { handle: options.database, closeOnShutdown: options.ownsDatabase ?? true });
  await app.register(corpsPlugin, { corps });
  // The sign-in and browser-binding cookies (ADRs 0011, 0012); none is signed.
  await app.register(cookie);
  await app.register(authPlugin, { sessionCache: tuning.sessionCache });
  // Before the routes: with standbys, statements go where ADR 0052 says.
  await app.register(readRoutingPlugin, { listen: tuning.sessionCache });

  const emulator = env.WECOM_MODE !== 'real';
  await app.register(securityHeadersPlugin, { sentryDsn: env.SENTRY_DSN });
  // Before the routes: it attaches its guards as each guarded route is registered.
  await app.register(rateLimitPlugin, {
    login: { limit: env.LOGIN_RATE_LIMIT, windowSeconds: tuning.loginRateWindowSeconds },
    kycSearch: { limit: env.KYC_SEARCH_RATE_LIMIT, windowSeconds: tuning.kycSearchRateWindowSeconds },
    phoneReveal: { limit: env.PHONE_REVEAL_RATE_LIMIT, windowSeconds: tuning.phoneRevealRateWindowSeconds },
    ownSignIn: carriesOwnSignInState,
  });
  const selfBase = () => {
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : env.PORT;
    const host = ['0.0.0.0', '::', 'localhost'].includes(env.HOST) ? '127.0.0.1' : env.HOST;
    return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  };
  // The emulator's address is known only once the server listens.
  await app.register(wecomPlugin, {
    apiBase: () => env.WECOM_API_BASE ?? (emulator ? `${selfBase()}/wecom` : 'https://qyapi.weixin.qq.com'),
  });

  app.decorate('wecomEmulator', null);
  app.decorate('refuseUndeclaredErrorCodes', options.refuseUndeclaredErrorCodes ?? false);
  if (emulator) {
    await mountWecomEmulator(app, {
      implied: env.WECOM_MODE === undefined,
      addDemoStaff: options.corps !== undefined || !env.CORPS_FILE,
      callbackUrl: (corp) => `${selfBase()}/api/wecom/callback/${corp.code}`,
    });
  }

  await app.register(openApiPlugin);
  await app.register(healthRoutes, {
    detailToken: env.HEALTH_DETAIL_TOKEN,
    development: env.WECOM_MODE === undefined ? IMPLIED_EMULATOR_NOTICE : undefined,
  });
  // The client list and KYC search the same books (ADR 0035).
  const indexes = new BookIndexStore(app.database.db, env.SEARCH_INDEX_MAX_ROWS);
  // A database migrated with rows (ADR 0046).
  if (tuning.searchTermsFillPauseMs > 0) {
    let filled = 0;
    const stopFill = startSearchTermsFill(app.database, {
      pauseMs: tuning.searchTermsFillPauseMs,
      onProgress: ({ written }) => {
        filled += written;
        if (filled % 50_000 < written) app.log.info({ filled }, 'search terms filled so far');
      },
      onError: (error) => app.log.warn({ err: error }, 'search terms fill failed; retrying'),
    });
    app.addHook('onClose', stopFill);
  }
  // ADR 0042: queued by the sweep, imports and threshold changes, sent by every replica.
  const quiet = parseQuietHours(env.MOT_PUSH_QUIET_HOURS);
  const quietHours = quiet === 'off' ? null : quiet;
  await app.register(motPushPlugin, {
    intervalMs: tuning.motPushIntervalMs,
    quietHours,
    minIntervalMs: env.MOT_PUSH_MIN_INTERVAL_MINUTES * 60_000,
    // With the emulator, this server's own address, as the sandbox's phone reaches it.
    appUrl: () => env.APP_PUBLIC_URL ?? (emulator ? selfBase() : null),
  });

  // One area left out does not compile.
  await registerContractRoutes(app, {
    auth: withOptions(authRoutes, {
      tokenTtlSeconds: env.TOKEN_TTL_SECONDS,
      // A standalone emulator (WECOM_API_BASE) serves its sign-in page beside its API.
      oauthBase: emulator ? (env.WECOM_API_BASE ?? '/wecom') : 'https://open.weixin.qq.com',
      emulator,
    }),
    wecom: jssdkRoutes,
    staff: staffRoutes,
    settings: settingsRoutes,
    customer: clientRoutes,
    manage: withOptions(manageRoutes, { indexes }),
    shortcuts: shortcutsRoutes,
    kyc: withOptions(kycRoutes, { indexes }),
    mot: withOptions(motRoutes, { contactRecordLockHours: env.CONTACT_RECORD_LOCK_HOURS }),
    motPush: withOptions(motPushRoutes, { quietHours }),
    audit: auditRoutes,
    contact: withOptions(contactRoutes, { lockHours: env.CONTACT_RECORD_LOCK_HOURS }),
  });
  await app.register(wecomCallbackRoutes);

  // Said once at start, not awaited: the proof waits up to SESSION_PROOF_TIMEOUT_MS for what never comes (ADR 0052).
  app.addHook('onReady', async () => {
    void app.database.keepsSessions().then(
      (keeps) => {
        if (!keeps) app.log.warn(noSessionWarning(env));
      },
      () => undefined,
    );
  });
  // After a first-start demo seed in main.ts.
  if (tuning.motSweepIntervalMs > 0) {
    let scheduler: MotScheduler | null = null;
    app.addHook('onReady', async () => {
      scheduler = startMotScheduler(app.database, {
        intervalMs: tuning.motSweepIntervalMs,
        ...(tuning.motSweepFirstAt === undefined ? {} : { firstAt: tuning.motSweepFirstAt }),
        announce: announceSweep,
        log: app.log,
      });
    });
    app.addHook('preClose', async () => scheduler?.stop());
  }

  if (env.WECOM_VERIFY_DIR) await app.register(wecomDomainVerificationRoutes, { dir: env.WECOM_VERIFY_DIR });
  await app.register(webStaticPlugin, { distDir: env.WEB_DIST_DIR ?? DEFAULT_WEB_DIST });
  app.setNotFoundHandler((request, reply) => {
    if (app.serveSpaIndex(request, reply)) return reply;
    return sendNotFound(request, reply);
  });
  return app;
}
