import { describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase } from '../../db/client';
import { seedDemoData } from '../../db/seed';
import { testDatabaseUrlForTools } from '../../testing/test-databases';
import { hongKongDay } from './mot-thresholds';
import { runMotRules, type MotRunResult } from './mot-engine';

const MAIN = fileURLToPath(new URL('../../main.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../../../../../node_modules/.bin/tsx', import.meta.url));
const adminUrl = testDatabaseUrlForTools();

interface SweepLog {
  msg: string;
  outcome?: string;
}

/** Starts `main.ts` and collects its JSON log lines. */
function startServer(databaseUrl: string, firstAt: string) {
  const child = spawn(TSX, [MAIN], {
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: databaseUrl,
      PORT: '0',
      LOG_LEVEL: 'debug',
      SEED_DEMO: 'false',
      WEB_DIST_DIR: '',
      MOT_SWEEP_INTERVAL_MS: '600000',
      MOT_SWEEP_FIRST_AT: firstAt,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const sweepLogs = () =>
    output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as SweepLog)
      .filter((line) => line.msg.startsWith('mot sweep'));
  return { child, sweepLogs, output: () => output };
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

// PostgreSQL only: two processes cannot share a PGlite database. CI sets TEST_DATABASE_URL, so it runs there.
describe.skipIf(!adminUrl)('MOT daily sweep with two server processes on one database (postgres)', () => {
  it('runs the batch once and creates each event exactly once', { timeout: 150_000 }, async () => {
    const name = `broker_mot_${Date.now()}_${randomBytes(3).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(adminUrl!);
    url.pathname = `/${name}`;
    const database = await openDatabase({ url: url.toString(), poolMax: 4 });
    const servers: ReturnType<typeof startServer>[] = [];
    try {
      await seedDemoData(database, { customers: 1500, seed: 9, asOf: hongKongDay() });
      // Both servers sweep at the same instant, and this process evaluates every rule (the
      // data-change path, which takes no lock) at that instant too.
      const moment = Date.now() + 8_000;
      const firstAt = new Date(moment).toISOString();
      servers.push(startServer(url.toString(), firstAt), startServer(url.toString(), firstAt));
      const ownRun = new Promise<MotRunResult>((resolve, reject) =>
        setTimeout(() => runMotRules(database).then(resolve, reject), moment - Date.now()),
      );
      const started = Date.now();
      while (!servers.every((server) => server.sweepLogs().length > 0)) {
        if (Date.now() - started > 90_000)
          throw new Error(`no sweep log from both servers:\n${servers.map((server) => server.output()).join('\n---\n')}`);
        if (servers.some((server) => server.child.exitCode !== null))
          throw new Error(`a server exited:\n${servers.map((server) => server.output()).join('\n---\n')}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const logs = servers.map((server) => server.sweepLogs()[0]!);
      expect(
        logs.filter((log) => /new events/.test(log.msg)),
        JSON.stringify(logs),
      ).toHaveLength(1);
      expect(
        logs.filter((log) => log.outcome === 'busy' || log.outcome === 'done-already'),
        JSON.stringify(logs),
      ).toHaveLength(1);

      const [counts] = await database.query<{ events: number; distinct_facts: number }>(
        'select count(*)::int as events, count(distinct (rule, customer_id, fact_key))::int as distinct_facts from mot_event',
      );
      expect(counts!.events).toBeGreaterThan(0);
      expect(counts!.distinct_facts).toBe(counts!.events);
      const runs = await database.query<{ run_date: string; finished: boolean; inserted: Record<string, number> }>(
        'select run_date::text, finished_at is not null as finished, inserted from mot_sweep_run',
      );
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ run_date: hongKongDay(), finished: true });
      // Every event was inserted by exactly one of the racers.
      const own = await ownRun;
      expect(Object.values(runs[0]!.inserted).reduce((sum, value) => sum + value, 0) + own.total).toBe(counts!.events);
    } finally {
      await Promise.all(servers.map((server) => stop(server.child)));
      await database.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
