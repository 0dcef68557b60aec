import { sql, type SQL } from 'drizzle-orm';
import { preparedRunnerOf, type Database } from './client';

/**
 * Runs a raw query and returns its rows on either driver. Queries cast what they select
 * (`::int`, `::float8`, `::text`, epoch ms) so both drivers hand back the same JS values.
 */
export async function selectRows<Row>(db: Pick<Database, 'execute'>, query: SQL, options: SelectOptions = {}): Promise<Row[]> {
  const runPrepared = options.prepare ? preparedRunnerOf(db) : undefined;
  if (runPrepared) return (await runPrepared(query)) as Row[];
  const result = (await db.execute(query)) as unknown as { rows: Row[] };
  return result.rows;
}

export interface SelectOptions {
  /**
   * Run as a prepared statement with a reusable plan where the engine offers it (see
   * `preparedRunnerOf`: only for statements whose plan does not depend on the values).
   */
  prepare?: boolean;
}

/** A LIKE pattern matching `term` anywhere, with LIKE's own wildcards taken literally. */
export const containsPattern = (term: string) => `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/** A query and the type of the rows it selects, for `selectRowSets`. */
export type RowsQuery<Row> = SQL & { readonly __row?: Row };
export const rowsQuery = <Row>(query: SQL) => query as RowsQuery<Row>;
export type RowSets<Queries extends Record<string, RowsQuery<unknown>>> = {
  [Key in keyof Queries]: Queries[Key] extends RowsQuery<infer Row> ? Row[] : never;
};

/**
 * Several queries' rows in one statement: one round trip and one statement's fixed cost instead
 * of one each, which on a 2-core machine was most of what a detail call cost: the server's socket
 * writes, one per statement, were its largest CPU cost (ADR 0008).
 * Each set comes back as a JSON array of objects keyed like `selectRows` keys its rows; the
 * queries already cast what they select, so the values are the same on both drivers. Each
 * query's ORDER BY is kept: the aggregate reads its subquery's rows in the order they are sorted.
 */
export async function selectRowSets<Queries extends Record<string, RowsQuery<unknown>>>(
  db: Pick<Database, 'execute'>,
  queries: Queries,
  options: SelectOptions = {},
): Promise<RowSets<Queries>> {
  const columns = Object.entries(queries).map(
    ([key, query]) => sql`(select coalesce(json_agg(t), '[]'::json) from (${query}) t) as ${sql.identifier(key)}`,
  );
  const [row] = await selectRows<RowSets<Queries>>(db, sql`select ${sql.join(columns, sql`, `)}`, options);
  return row!;
}
