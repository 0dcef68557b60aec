import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { testDatabases } from '../testing';
import { openDatabase, preparedRunnerOf, type DatabaseHandle } from './client';

/*
 * ADR 0052: with DATABASE_DIRECT_URL, DATABASE_URL is taken for a transaction-mode pooler, which refuses
 * startup options (PgBouncer 1.24: "unsupported startup parameter in options"): its connections ask for
 * none, while the direct (session) connections keep them. Without it, every connection sets them.
 */
const postgres = testDatabases().filter((engine) => engine.kind === 'postgres');

for (const engine of postgres) {
  describe(`DATABASE_DIRECT_URL (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void>; url?: string };
    const opened: DatabaseHandle[] = [];
    beforeAll(async () => {
      database = await engine.create();
    });
    afterAll(async () => {
      for (const handle of opened) await handle.close();
      await database?.drop();
    });

    /** `client`: the setting came with the connection's startup options. */
    const sourceOf = (name: string) => `select source from pg_settings where name = '${name}'`;
    const settingsOf = async (handle: DatabaseHandle) => {
      const run = preparedRunnerOf(handle.db)!;
      const [prepared] = (await run(sql.raw(sourceOf('plan_cache_mode')))) as { source: string }[];
      const pooledResult = (await handle.db.execute(sql.raw(sourceOf('max_parallel_workers_per_gather')))) as {
        rows: { source: string }[];
      };
      const [pooled] = pooledResult.rows;
      const [session] = (await handle.sessionPool!.query<{ source: string }>(sourceOf('max_parallel_workers_per_gather'))).rows;
      return { pooled: pooled!.source, prepared: prepared!.source, session: session!.source };
    };

    it('without it, every connection asks for the session settings', async () => {
      const handle = await openDatabase({ url: database.url!, migrate: false, poolMax: 2 });
      opened.push(handle);
      expect(handle.sessionPool).toBe(handle.pool);
      expect(await settingsOf(handle)).toEqual({ pooled: 'client', prepared: 'client', session: 'client' });
    });

    it("with it, DATABASE_URL's connections ask for none (server defaults), the direct ones keep them", async () => {
      const handle = await openDatabase({ url: database.url!, directUrl: database.url!, poolMax: 2 });
      opened.push(handle);
      expect(handle.sessionPool).not.toBe(handle.pool);
      const settings = await settingsOf(handle);
      expect(settings.session).toBe('client');
      expect([settings.pooled, settings.prepared]).not.toContain('client');
      const [migrated] = await handle.query<{ count: number }>('select count(*)::int as count from drizzle.__drizzle_migrations');
      expect(migrated!.count).toBeGreaterThan(0);
    });
  });
}
