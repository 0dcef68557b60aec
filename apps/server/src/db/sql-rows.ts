import type { SQL } from 'drizzle-orm';
import type { Database } from './client';

/**
 * Runs a raw query and returns its rows on either driver. Queries cast what they select
 * (`::int`, `::float8`, `::text`, epoch ms) so both drivers hand back the same JS values.
 */
export async function selectRows<Row>(db: Pick<Database, 'execute'>, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown as { rows: Row[] };
  return result.rows;
}

/** A LIKE pattern matching `term` anywhere, with LIKE's own wildcards taken literally. */
export const containsPattern = (term: string) => `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
