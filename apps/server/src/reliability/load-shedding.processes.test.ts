import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { ErrorCode, getChannel } from '@broker/contract';
import { signInAs } from '../testing/test-app';
import { apiClient } from '../testing/api-client';
import { startServerProcess } from '../testing/server-process';
import { callEndpoint, createPostgresDatabase, postgresAdminUrl, sleep, type CallOutcome } from './reliability-fixtures';

const POOL_MAX = 2;
const POOL_WAIT_MS = 500;
const BURST = 24;

// PostgreSQL only: PGlite has one connection and no pool to exhaust (docs/reliability.md). CI sets TEST_DATABASE_URL.
describe.skipIf(!postgresAdminUrl)(
  'load shedding when the database pool is exhausted (postgres; skipped without TEST_DATABASE_URL)',
  () => {
    it('answers 090503 with Retry-After while every connection is held, stays up, and serves normally once released', async () => {
      const database = await createPostgresDatabase('shed');
      const server = await startServerProcess({
        env: { DATABASE_URL: database.url, DATABASE_POOL_MAX: String(POOL_MAX) },
        tuning: { databasePoolWaitMs: POOL_WAIT_MS },
      });
      const holder = new pg.Client({ connectionString: database.url });
      try {
        const staff = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'chanwaiman'));
        await holder.connect();
        // The new session is in no cache yet, so every request of the burst reads auth_session first
        // (ADR 0010); while this lock is held, the first POOL_MAX requests take the pool's connections
        // and block inside PostgreSQL, as behind a slow query, and every later one waits for a
        // connection that does not come.
        await holder.query('begin');
        await holder.query('lock table auth_session in access exclusive mode');

        const startedAt = performance.now();
        const answered: Array<{ outcome: CallOutcome; afterMs: number }> = [];
        const burst = Array.from({ length: BURST }, () =>
          callEndpoint(staff, getChannel, {}).then((outcome) => {
            answered.push({ outcome, afterMs: performance.now() - startedAt });
            return outcome;
          }),
        );
        // Wait (lock still held) until all but the blocked requests have their answer. A server that
        // queued without bound would never get here and the test would time out.
        while (answered.length < BURST - POOL_MAX) await sleep(20);
        const shed = answered.map(({ outcome }) => outcome);
        for (const outcome of shed) {
          expect(outcome).toMatchObject({ kind: 'answer', status: 503, code: ErrorCode.UNAVAILABLE, retryAfter: '1' });
          expect((outcome as { msg: string }).msg).toMatch(/busy.*database connection.*retry/i);
        }
        expect(server.child.exitCode).toBeNull();
        const health = await fetch(`${server.baseUrl}/healthz`);
        expect(health.status).toBe(200);
        const shedAfterMs = answered.map(({ afterMs }) => afterMs);
        console.info(
          `load shedding: ${shed.length} of ${BURST} requests shed with 090503 after ${Math.round(Math.min(...shedAfterMs))}–` +
            `${Math.round(Math.max(...shedAfterMs))} ms (pool wait ${POOL_WAIT_MS} ms, pool ${POOL_MAX}, held)`,
        );

        await holder.query('commit');
        const blocked = (await Promise.all(burst)).filter((outcome) => !shed.includes(outcome));
        expect(blocked).toHaveLength(POOL_MAX);
        for (const outcome of blocked) expect(outcome).toMatchObject({ kind: 'answer', status: 200, code: ErrorCode.OK });

        const after = await Promise.all(Array.from({ length: BURST }, () => callEndpoint(staff, getChannel, {})));
        expect(after.map((outcome) => (outcome.kind === 'answer' ? outcome.code : outcome.kind))).toEqual(Array(BURST).fill(ErrorCode.OK));

        const logs = server.logLines();
        expect(logs.filter((line) => line.msg.startsWith('shed:'))).toHaveLength(BURST - POOL_MAX);
        expect(logs.filter((line) => line.level === 50 || line.level === 60)).toEqual([]);
      } finally {
        await holder.end().catch(() => undefined);
        await server.stop();
        await database.drop();
      }
    });
  },
);
