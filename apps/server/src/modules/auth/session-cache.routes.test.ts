import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@broker/contract';
import { testDatabases, startTestApp, signInAs, apiClient, type RunningTestApp, type SignedIn } from '../../testing';
import { openDatabase, type DatabaseHandle } from '../../db/client';
import { hashSessionToken } from './session-token';

const SESSION_LOOKUP = /from "auth_session" "s" join "staff"/;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const engine of testDatabases()) {
  describe(`cached sessions, ended by the database's change notifications (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void>; url?: string };
    let server: RunningTestApp;
    const statements: string[] = [];

    beforeAll(async () => {
      database = await engine.create({ onQuery: (text) => statements.push(text) });
      server = await startTestApp(database);
    });
    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    /** A business call's envelope code, and whether it read auth_session. */
    const call = async (signedIn: SignedIn) => {
      statements.length = 0;
      const { body } = await apiClient(server.baseUrl, signedIn).getDefaultCcy();
      return { code: body.code, lookedUp: statements.some((text) => SESSION_LOOKUP.test(text)) };
    };
    /** Calls until the answer is `code` (a change's notification arrives within milliseconds). */
    const eventually = async (signedIn: SignedIn, code: string) => {
      const started = performance.now();
      let last = await call(signedIn);
      while (last.code !== code && performance.now() - started < 3_000) {
        await sleep(10);
        last = await call(signedIn);
      }
      return last.code;
    };

    it('reads a session once, then serves it from the cache', async () => {
      const chan = await signInAs(server.baseUrl, 'chanwaiman');
      expect(await call(chan)).toEqual({ code: ErrorCode.OK, lookedUp: true });
      expect(await call(chan)).toEqual({ code: ErrorCode.OK, lookedUp: false });
      expect(await call(chan)).toEqual({ code: ErrorCode.OK, lookedUp: false });
    });

    it('reads every session from the database with the cache off', async () => {
      const uncached = await startTestApp(database, {}, { tuning: { sessionCache: false } });
      try {
        const chan = await signInAs(uncached.baseUrl, 'chanwaiman');
        for (let attempt = 0; attempt < 3; attempt += 1) {
          statements.length = 0;
          expect((await apiClient(uncached.baseUrl, chan).getDefaultCcy()).body.code).toBe(ErrorCode.OK);
          expect(statements.some((text) => SESSION_LOOKUP.test(text))).toBe(true);
        }
      } finally {
        await uncached.close();
      }
    });

    it('refuses a cached session once it is revoked, expired or its staff member deactivated in the database', async () => {
      const revoked = await signInAs(server.baseUrl, 'chanwaiman');
      const expired = await signInAs(server.baseUrl, 'leekaying');
      const other = await signInAs(server.baseUrl, 'leekaying');
      for (const signedIn of [revoked, expired, other]) await call(signedIn);
      expect((await call(revoked)).lookedUp).toBe(false);

      await database.query(`update auth_session set revoked_at = now() where token_hash = $1`, [hashSessionToken(revoked.token)]);
      await database.query(`update auth_session set expires_at = now() - interval '1 second' where token_hash = $1`, [
        hashSessionToken(expired.token),
      ]);
      expect(await eventually(revoked, ErrorCode.LOGIN_INVALID)).toBe(ErrorCode.LOGIN_INVALID);
      expect(await eventually(expired, ErrorCode.LOGIN_EXPIRED)).toBe(ErrorCode.LOGIN_EXPIRED);
      // Another session of the same staff member is read again, and still valid.
      expect(await call(other)).toEqual({ code: ErrorCode.OK, lookedUp: true });

      await database.query(`update staff set active = false where wecom_user_id = 'leekaying'`);
      try {
        expect(await eventually(other, ErrorCode.LOGIN_INVALID)).toBe(ErrorCode.LOGIN_INVALID);
      } finally {
        await database.query(`update staff set active = true where wecom_user_id = 'leekaying'`);
      }
      expect(await eventually(other, ErrorCode.OK)).toBe(ErrorCode.OK);
    });

    if (engine.kind === 'postgres') {
      it('never serves a session from memory when its LISTEN cannot hear DATABASE_URL (as through a transaction-mode pooler)', async () => {
        // DATABASE_DIRECT_URL naming another database: the LISTEN there succeeds and hears none of this
        // database's notifications, as a LISTEN through PgBouncer's transaction mode (ADR 0052).
        const elsewhere = await engine.create({ migrate: false });
        const deaf = await openDatabase({
          url: database.url!,
          directUrl: elsewhere.url!,
          migrate: false,
          poolMax: 2,
          sessionProofTimeoutMs: 200,
          onQuery: (text) => statements.push(text),
        });
        const unproven = await startTestApp(deaf);
        try {
          const chan = await signInAs(unproven.baseUrl, 'chanwaiman');
          for (let attempt = 0; attempt < 2; attempt += 1) {
            statements.length = 0;
            expect((await apiClient(unproven.baseUrl, chan).getDefaultCcy()).body.code).toBe(ErrorCode.OK);
            expect(statements.some((text) => SESSION_LOOKUP.test(text))).toBe(true);
          }
          await database.query(`update auth_session set revoked_at = now() where token_hash = $1`, [hashSessionToken(chan.token)]);
          // At once, not when a cache entry would have expired.
          expect((await apiClient(unproven.baseUrl, chan).getDefaultCcy()).body.code).toBe(ErrorCode.LOGIN_INVALID);
        } finally {
          await unproven.close();
          await deaf.close();
          await elsewhere.drop();
        }
      });

      it('reads every session from the database while its listening connection is lost, and caches again once it is back', async () => {
        const wong = await signInAs(server.baseUrl, 'wongchishing');
        await call(wong);
        expect((await call(wong)).lookedUp).toBe(false);
        const [terminated] = await database.query<{ done: boolean }>(
          `select bool_and(pg_terminate_backend(pid)) as done from pg_stat_activity
            where datname = current_database() and query = 'listen broker_session_changed'`,
        );
        expect(terminated?.done).toBe(true);
        // Until the loss is noticed the cache may still answer; after it, every call reads.
        let lookedUp = false;
        for (let attempt = 0; attempt < 100 && !lookedUp; attempt += 1) {
          lookedUp = (await call(wong)).lookedUp;
          if (!lookedUp) await sleep(5);
        }
        expect(lookedUp).toBe(true);
        // No notification can arrive now, so nothing may be served from memory.
        await database.query(`update auth_session set revoked_at = now() where token_hash = $1`, [hashSessionToken(wong.token)]);
        expect((await call(wong)).code).toBe(ErrorCode.LOGIN_INVALID);
        // Reconnected (first retry after half a second): sessions are cached again.
        const again = await signInAs(server.baseUrl, 'wongchishing');
        let cached = false;
        for (let attempt = 0; attempt < 60 && !cached; attempt += 1) {
          await sleep(50);
          await call(again);
          cached = !(await call(again)).lookedUp;
        }
        expect(cached).toBe(true);
      });
    }
  });
}
