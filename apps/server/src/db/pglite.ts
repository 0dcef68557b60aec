import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { PgDialect } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type { Database, DatabaseHandle, QueryObserver } from './client';
import { checkedChannel } from './listen';
import { lockPgliteDir } from './pglite-lock';
import { pgliteOptions } from './pglite-options';
import { attachPreparedRunner, loggerOf } from './prepared-statements';
import * as schema from './schema';

const defaultHolder = () => process.argv.slice(1, 2).join(' ') || 'node';

export async function openPglite(
  dir: string,
  how: { holder?: string | undefined; data?: Blob | undefined },
  observe?: QueryObserver,
): Promise<DatabaseHandle> {
  const inMemory = dir.startsWith('memory://');
  if (!inMemory) mkdirSync(dir, { recursive: true });
  // A second PGlite on the same files corrupts them without a word (ADR 0020).
  const lock = inMemory ? null : lockPgliteDir(dir, how.holder ?? defaultHolder());
  let client: PGlite;
  try {
    client = await PGlite.create(pgliteOptions(dir, how.data ? { loadDataDir: how.data } : {}));
  } catch (error) {
    lock?.release();
    throw error;
  }
  const db = drizzlePglite({ client, schema, ...loggerOf(observe) }) as unknown as Database;
  if (observe) {
    // PGlite has no plan cache; a statement is still reported as prepared, so the SQL snapshots show which run so.
    const unobserved = drizzlePglite({ client, schema }) as unknown as Database;
    const dialect = new PgDialect();
    attachPreparedRunner(db, async (query) => {
      const { sql: text, params } = dialect.sqlToQuery(query);
      observe(text, params, true);
      return ((await unobserved.execute(query)) as { rows: unknown[] }).rows;
    });
  }
  return {
    db,
    kind: 'pglite',
    pglite: client,
    // One process, one connection.
    keepsSessions: async () => true,
    async query<Row>(text: string, params: unknown[] = []) {
      observe?.(text, params);
      return (await client.query<Row>(text, params)).rows;
    },
    async listen(channel, handlers) {
      const unsubscribe = await client.listen(checkedChannel(channel), handlers.onNotify);
      handlers.onLive(true);
      return async () => {
        handlers.onLive(false);
        await unsubscribe().catch(() => undefined);
      };
    },
    close: async () => {
      try {
        await client.close();
      } finally {
        lock?.release();
      }
    },
  };
}
