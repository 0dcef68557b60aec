import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import type { DatabaseHandle } from '../client';

/** Loads tab-separated COPY text lines into a table: COPY on both engines. */
export type BulkLoad = (table: string, columns: readonly string[], lines: string[]) => Promise<void>;

export function bulkLoaderFor(handle: DatabaseHandle): BulkLoad {
  if (handle.kind === 'pglite') {
    const pglite = handle.pglite!;
    return async (table, columns, lines) => {
      if (lines.length === 0) return;
      // PGlite reads COPY input from a Blob mounted at /dev/blob.
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

export interface DeferredDdl {
  /** Statements that re-create what was dropped, indexes first then foreign keys. */
  restore: string[];
}

/**
 * PostgreSQL only: drops secondary indexes and foreign keys of the bulk tables so COPY only
 * appends, and returns the DDL to put them back (building an index once is far cheaper than
 * maintaining it row by row).
 */
export async function dropSecondaryStructures(handle: DatabaseHandle, tables: readonly string[]): Promise<DeferredDdl> {
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
    restore: [
      // A partitioned table's index is defined `ON ONLY` the parent; built on the parent, it is built on every partition.
      ...indexes.map((index) => index.definition.replace(' ON ONLY ', ' ON ')),
      ...foreignKeys.map((fk) => `alter table ${fk.table} add constraint "${fk.name}" ${fk.definition}`),
    ],
  };
}

/** Runs the restore DDL over `parallel` connections; index builds are independent of each other. */
export async function restoreSecondaryStructures(handle: DatabaseHandle, ddl: DeferredDdl, parallel = 2) {
  const indexes = ddl.restore.filter((statement) => !statement.startsWith('alter table'));
  const constraints = ddl.restore.filter((statement) => statement.startsWith('alter table'));
  const queue = [...indexes];
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
  // Constraints last: validating them reads the freshly indexed parents.
  for (const statement of constraints) await handle.query(statement);
  // Briefly: a writer's transaction is seconds; a longer one only slows the first plans (a check of plans waits itself).
  await untilIndexesUsable(handle, 10_000);
}

/**
 * Waits, at most `timeoutMs`, until the planner may use every index of the database. An index built over a table
 * with HOT-updated rows (the customer summaries are written after the load, before the indexes exist) while an
 * older transaction with a transaction id runs anywhere in the cluster, in any database, is marked `indcheckxmin`:
 * until every transaction older than its build has ended, plans treat it as absent and read the table whole. A
 * seed followed at once by a query-plan check on a busy server (CI runs test files side by side, writing) planned
 * the keyword searches as sequential scans of customer. Returns the indexes still not usable when the wait ended
 * (none, or those a long transaction elsewhere holds back: it only delays their first use).
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

/**
 * Indexes the planner may not use yet: marked `indcheckxmin`, and built by a transaction that does not precede this
 * statement's snapshot's xmin (the planner's own test, with the snapshot's xmin as `TransactionXmin`). The xmin of
 * `pg_index`'s row is the building transaction; xid8 (with its epoch) is brought to xid's 32 bits for `age()`.
 */
export async function indexesNotYetUsable(handle: Pick<DatabaseHandle, 'query'>): Promise<string[]> {
  const rows = await handle.query<{ name: string }>(
    `select i.indexrelid::regclass::text as name from pg_index i
      where i.indcheckxmin
        and age(i.xmin) <= age(((pg_snapshot_xmin(pg_current_snapshot())::text::numeric % 4294967296)::text)::xid)
      order by 1`,
  );
  return rows.map((row) => row.name);
}
