import type { DatabaseHandle } from '../db/client';

/**
 * Back-office data: loaded by the importer and the seed, never written by an API request. Left out
 * of the digest (it is most of the rows) and watched statement by statement instead.
 */
export const REFERENCE_TABLES = [
  'account',
  'cash_balance',
  'exchange_rate',
  'holding',
  'money_movement',
  'security',
  'stock_transfer',
  'trade',
] as const;

/**
 * Written on purpose by requests that are then refused: the rate-limit counter counts every
 * attempt, and the WeCom credential cache keeps a token fetched while checking a request.
 */
export const ATTEMPT_TABLES = ['rate_limit_counter', 'wecom_credential'] as const;

/**
 * A digest of every table an API request may change — every table of the schema except the two
 * lists above, so a table added later is in it from the start. Equal digests: nothing written.
 */
export function createTableDigest(database: Pick<DatabaseHandle, 'query'>) {
  let statement: string | null = null;
  return async (): Promise<string> => {
    if (!statement) {
      const skipped: readonly string[] = [...REFERENCE_TABLES, ...ATTEMPT_TABLES];
      const tables = (
        await database.query<{ name: string }>(
          // A partitioned table once (its rows are its partitions' rows), never its partitions one by one: a
          // month of `trade` is back-office data like its parent, and a digest of every month's rows took PGlite
          // past its memory (the hostile-input suite hung inside PGlite after migration 0034).
          `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by 1`,
        )
      )
        .map((row) => row.name)
        .filter((name) => !skipped.includes(name) && !name.startsWith('__drizzle'));
      if (!tables.includes('customer') || !tables.includes('audit_log'))
        throw new Error(`table digest: unexpected schema (${tables.join(', ')})`);
      const parts = tables.map(
        (name) => `'${name}:' || (select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) from "${name}" t)`,
      );
      statement = `select md5(${parts.join(` || ',' || `)}) as digest`;
    }
    const [row] = await database.query<{ digest: string }>(statement);
    return row!.digest;
  };
}

const WRITE = /\b(?:insert\s+into|update|delete\s+from|truncate(?:\s+table)?)\s+"?([a-z_]+)"?/gi;

/**
 * Watches every statement (the database handle's `onQuery`) for a write to a reference table.
 * Arm it once the fixture is loaded; `writes()` returns what it saw since the last call.
 */
export function referenceWriteGuard() {
  let armed = false;
  let seen: string[] = [];
  return {
    observe: (text: string) => {
      if (!armed) return;
      for (const match of text.matchAll(WRITE)) {
        if ((REFERENCE_TABLES as readonly string[]).includes(match[1]!.toLowerCase())) seen.push(text.slice(0, 200));
      }
    },
    arm: () => {
      armed = true;
    },
    writes: () => {
      const result = seen;
      seen = [];
      return result;
    },
  };
}
