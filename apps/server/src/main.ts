import { fileURLToPath } from 'node:url';
import { ConfigError, loadEnv, seedsDemoData, type Env } from './env';
import { TUNING, type Tuning } from './tuning';
import { IMPLIED_EMULATOR_NOTICE } from './wecom-mode-guard';
import { openDatabase } from './db/client';
import { ensureMonthPartitions } from './db/partitions';
import { buildApp } from './app';
import { seedDemoDataIfEmpty } from './db/seed';
import { runDailyMotSweep } from './modules/mot';
import { announceSweep } from './modules/mot-push';
import { hongKongDay } from '@broker/domain';
import pino from 'pino';

/** `changes`: what a test or drill sets of the values no deployer turns (testing/server-process.ts, ADR 0059). */
export function runServer(changes: Partial<Tuning> = {}): Promise<void> {
  return serve({ ...TUNING, ...changes }).catch((error: unknown) => {
    console.error('Server failed to start:', error instanceof Error ? error.message : error);
    process.exit(1);
  });
}

async function serve(tuning: Tuning) {
  let env: Env;
  try {
    env = loadEnv();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const database = await openDatabase({
    url: env.DATABASE_URL,
    pgliteDir: env.PGLITE_DIR,
    holder: 'server (apps/server/src/main.ts)',
    poolMax: env.DATABASE_POOL_MAX,
    poolWaitMs: tuning.databasePoolWaitMs,
    directUrl: env.DATABASE_DIRECT_URL,
    standbys: env.DATABASE_READ_URL
      ? {
          urls: env.DATABASE_READ_URL,
          maxLagMs: env.DATABASE_READ_MAX_LAG_MS,
          waitMs: tuning.standbyReadWaitMs,
          timeoutMs: tuning.standbyReadTimeoutMs,
        }
      : undefined,
  });
  // ADR 0053; the MOT sweep creates them again each day.
  await ensureMonthPartitions(database);
  // Lines written by the thread pool, batched, not one synchronous write per line on the request thread (ADR 0033).
  // Buffered lines are flushed on exit; only a SIGKILL loses the last few ms.
  const logStream = pino.destination({ dest: 1, sync: false });
  const app = await buildApp({ env, database, logStream, tuning });

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, tuning.shutdownTimeoutMs);
    timer.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => shutdown(signal));

  // The corps and the emulator's staff rows exist by now.
  const corp = app.corps.all()[0];
  if (seedsDemoData(env) && tuning.demoCustomers > 0 && corp) {
    // From the one Hong Kong calendar.
    const today = hongKongDay();
    const seeded = await seedDemoDataIfEmpty(database, {
      customers: tuning.demoCustomers,
      corpCode: corp.code,
      asOf: today,
      log: (message) => app.log.info(message),
    });
    // Even if today's sweep already ran on an empty database.
    if (seeded) {
      const outcome = await runDailyMotSweep(database, { asOf: today, force: true, announce: announceSweep });
      if (outcome.status === 'ran')
        app.log.info({ inserted: outcome.result.inserted }, `demo MOT events: ${outcome.result.total} in ${outcome.result.elapsedMs} ms`);
    }
  }

  await app.listen({ port: env.PORT, host: env.HOST });
  const base = `http://${env.HOST === '0.0.0.0' ? '127.0.0.1' : env.HOST}:${(app.server.address() as { port: number }).port}`;
  app.log.info(
    `Broker Assistant is up on ${base} (database: ${database.kind}${database.kind === 'pglite' ? ` at ${env.PGLITE_DIR}` : ''}, WeCom: ${env.WECOM_MODE ?? `emulator, implied: ${IMPLIED_EMULATOR_NOTICE}`}).` +
      (env.WECOM_MODE !== 'real' ? ` Open ${base}/ and pick a staff member on the emulated WeCom sign-in page.` : ''),
  );
  // After listen: in emulator mode WeCom is this server. Not awaited: WeCom never holds up start-up.
  if (tuning.wecomProbeIntervalMs > 0) {
    void app.startWecomProbe(tuning.wecomProbeIntervalMs).catch((error: unknown) => app.log.error({ err: error }, 'WeCom probe failed'));
  }
}

// `npm run dev`; `npm start` imports it and calls runServer.
if (process.argv[1] === fileURLToPath(import.meta.url)) void runServer();
