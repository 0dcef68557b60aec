import type { DatabaseHandle } from './client';

/** Months after the current Hong Kong month that exist before their first row (ADR 0053). */
export const PARTITION_MONTHS_AHEAD = 3;

/**
 * Creates the missing monthly partitions (migrations 0034, 0035) from `since` (default: this Hong Kong month)
 * through `monthsAhead`, and moves rows waiting in a default partition into their month. Idempotent and safe
 * on several replicas (the SQL function takes a lock). Returns how many it created.
 */
export async function ensureMonthPartitions(
  database: Pick<DatabaseHandle, 'query'>,
  options: { since?: string; monthsAhead?: number } = {},
): Promise<number> {
  const [row] = await database.query<{ created: number }>('select broker_ensure_month_partitions($1::int, $2::date) as created', [
    options.monthsAhead ?? PARTITION_MONTHS_AHEAD,
    options.since ?? null,
  ]);
  return row?.created ?? 0;
}
