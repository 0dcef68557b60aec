import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../../db/client';
import { seedDemoData } from '../../db/seed';
import { testDatabaseUrlForTools } from '../../testing/test-databases';
import { createFromPostgresTemplate } from '../../testing/database-templates';
import { startServerProcess, type ServerProcess } from '../../testing/server-process';
import { hongKongDay } from '@broker/domain';
import { runMotRules, type MotRunResult } from './mot-engine';

const adminUrl = testDatabaseUrlForTools();

/** `main.ts` in its own process, sweeping first at `firstAt`. */
const startServer = (databaseUrl: string, firstAt: string) =>
  startServerProcess({
    env: { DATABASE_URL: databaseUrl, LOG_LEVEL: 'debug' },
    tuning: { motSweepIntervalMs: 600_000, motSweepFirstAt: Date.parse(firstAt) },
  });

const sweepLogs = (server: ServerProcess) =>
  server.logLines().filter((line) => line.msg.startsWith('mot sweep')) as Array<{ msg: string; outcome?: string }>;

// PostgreSQL only: two processes cannot share a PGlite database. CI sets TEST_DATABASE_URL, so it runs there.
describe.skipIf(!adminUrl)('MOT daily sweep with two server processes on one database (postgres)', () => {
  it('runs the batch once and creates each event exactly once', { timeout: 150_000 }, async () => {
    const name = `broker_mot_${Date.now()}_${randomBytes(3).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await createFromPostgresTemplate(adminUrl!, name);
    const url = new URL(adminUrl!);
    url.pathname = `/${name}`;
    const database = await openDatabase({ url: url.toString(), poolMax: 4 });
    const servers: ServerProcess[] = [];
    try {
      await seedDemoData(database, { customers: 1500, seed: 9, asOf: hongKongDay() });
      // Both servers sweep at the same instant, and this process evaluates every rule (the
      // data-change path, which takes no lock) at that instant too.
      const moment = Date.now() + 8_000;
      const firstAt = new Date(moment).toISOString();
      const starting = [startServer(url.toString(), firstAt), startServer(url.toString(), firstAt)];
      const ownRun = new Promise<MotRunResult>((resolve, reject) =>
        setTimeout(() => {
          runMotRules(database).then(resolve, reject);
        }, moment - Date.now()),
      );
      for (const result of await Promise.allSettled(starting)) if (result.status === 'fulfilled') servers.push(result.value);
      await Promise.all(starting);
      const started = Date.now();
      while (!servers.every((server) => sweepLogs(server).length > 0)) {
        if (Date.now() - started > 90_000)
          throw new Error(`no sweep log from both servers:\n${servers.map((server) => server.output()).join('\n---\n')}`);
        if (servers.some((server) => server.child.exitCode !== null))
          throw new Error(`a server exited:\n${servers.map((server) => server.output()).join('\n---\n')}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const logs = servers.map((server) => sweepLogs(server)[0]!);
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
      await Promise.all(servers.map((server) => server.stop()));
      await database.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
