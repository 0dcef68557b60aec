import type { DatabaseHandle } from './client';

/** How many months after the current Hong Kong month exist ahead of their first row (ADR 0053). */
export const PARTITION_MONTHS_AHEAD = 3;

/**
 * Creates the monthly partitions of every month-partitioned table (trade, money_movement,
 * stock_transfer: migration 0034; audit_log: 0035) that are missing: the months from `since` (default: this Hong Kong
 * month) through `monthsAhead` months ahead, and the month of every row waiting in a default
 * partition, whose rows it moves into their month. Idempotent, and safe on several replicas at once
 * (the SQL function takes a transaction advisory lock). Returns how many partitions it created.
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
