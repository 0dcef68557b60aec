import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import type { DatabaseHandle } from '../client';

export type BulkLoad = (table: string, columns: readonly string[], lines: string[]) => Promise<void>;

export function bulkLoaderFor(handle: DatabaseHandle): BulkLoad {
  if (handle.kind === 'pglite') {
    const pglite = handle.pglite!;
    return async (table, columns, lines) => {
      if (lines.length === 0) return;
      await pglite.query(`copy ${table} (${columns.join(', ')}) from '/dev/blob'`, [], { blob: new Blob([lines.join('\n') + '\n']) });
    };
  }
  const pool = handle.pool!;
  return async (table, columns, lines) => {
    if (lines.length === 0) return;
    const client = await pool.connect();
    try {
      const stream = client.query(copyFrom(`copy ${table} (${columns.join(', ')}) from stdin`));
      await pipeline(Readable.from([lines.join('\n') + '\n']), stream);
    } finally {
      client.release();
    }
  };
}

type DeferredDdl = Awaited<ReturnType<typeof dropSecondaryStructures>>;

/** PostgreSQL only: drops the bulk tables' secondary indexes and foreign keys so COPY only appends; returns the DDL back. */
export async function dropSecondaryStructures(handle: DatabaseHandle, tables: readonly string[]) {
  const foreignKeys = await handle.query<{ table: string; name: string; definition: string }>(
    `select conrelid::regclass::text as table, conname as name, pg_get_constraintdef(oid) as definition
       from pg_constraint where contype = 'f' and conrelid::regclass::text = any($1)`,
    [tables],
  );
  const indexes = await handle.query<{ name: string; definition: string }>(
    `select i.indexname as name, i.indexdef as definition from pg_indexes i
      where i.schemaname = current_schema() and i.tablename = any($1)
        and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
    [tables],
  );
  for (const fk of foreignKeys) await handle.query(`alter table ${fk.table} drop constraint "${fk.name}"`);
  for (const index of indexes) await handle.query(`drop index "${index.name}"`);
  return {
    // A partitioned table's index is `ON ONLY` the parent; built on the parent, it is built on every partition.
    indexes: indexes.map((index) => index.definition.replace(' ON ONLY ', ' ON ')),
    foreignKeys: foreignKeys.map((fk) => `alter table ${fk.table} add constraint "${fk.name}" ${fk.definition}`),
  };
}

/** Indexes first, then foreign keys. */
export async function restoreSecondaryStructures(handle: DatabaseHandle, ddl: DeferredDdl, parallel = 2) {
  const queue = [...ddl.indexes];
  const worker = async () => {
    const client = await handle.pool!.connect();
    try {
      await client.query(`set maintenance_work_mem = '512MB'`);
      for (let statement = queue.shift(); statement; statement = queue.shift()) await client.query(statement);
    } finally {
      client.release();
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  for (const statement of ddl.foreignKeys) await handle.query(statement);
  // Briefly: a longer wait only delays the first plans.
  await untilIndexesUsable(handle, 10_000);
}

/**
 * An index built over HOT-updated rows while an older transaction runs anywhere in the cluster is `indcheckxmin`:
 * plans treat it as absent until that transaction ends (a seed then a plan check planned sequential scans).
 * Returns the indexes still not usable when the wait ended.
 */
export async function untilIndexesUsable(handle: Pick<DatabaseHandle, 'query' | 'kind'>, timeoutMs = 30_000): Promise<string[]> {
  if (handle.kind !== 'postgres') return [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const waiting = await indexesNotYetUsable(handle);
    if (waiting.length === 0 || Date.now() >= deadline) return waiting;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The planner's own test: `indcheckxmin` and built by a transaction not before this snapshot's xmin. */
export async function indexesNotYetUsable(handle: Pick<DatabaseHandle, 'query'>): Promise<string[]> {
  const rows = await handle.query<{ name: string }>(
    `select i.indexrelid::regclass::text as name from pg_index i
      where i.indcheckxmin
        and age(i.xmin) <= age(((pg_snapshot_xmin(pg_current_snapshot())::text::numeric % 4294967296)::text)::xid)
      order by 1`,
  );
  return rows.map((row) => row.name);
}
