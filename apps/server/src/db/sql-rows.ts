import { fillPlaceholders, Param, sql, SQL, StringChunk, type AnyColumn, type GetColumnData, type SQLChunk } from 'drizzle-orm';
import { preparedRunnerOf, type Database } from './client';
import { alias, PgDialect, type PgTable } from 'drizzle-orm/pg-core';

/**
 * Runs a raw query and returns its rows on either driver. Queries cast what they select
 * (`::int`, `::float8`, `::text`, epoch ms) so both drivers hand back the same JS values.
 */
export async function selectRows<Row>(db: Pick<Database, 'execute'>, query: RowsQuery<Row>, options: SelectOptions = {}): Promise<Row[]> {
  const runPrepared = options.prepare ? preparedRunnerOf(db) : undefined;
  if (runPrepared) return (await runPrepared(query)) as Row[];
  const result = (await db.execute(query)) as { rows: Row[] };
  return result.rows;
}

export interface SelectOptions {
  /**
   * Run as a prepared statement with a reusable plan where the engine offers it (see
   * `preparedRunnerOf`: only for statements whose plan does not depend on the values).
   */
  prepare?: boolean;
}

/** `term` with LIKE's own wildcards and its escape character taken literally, to build a pattern around. */
export const likeEscaped = (term: string) => term.replace(/[\\%_]/g, (char) => `\\${char}`);

/** A LIKE pattern matching `term` anywhere, with LIKE's own wildcards taken literally. */
export const containsPattern = (term: string) => `%${likeEscaped(term)}%`;

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

/**
 * Queries name their columns through the schema (ADR 0027): `${c.nameCn}` renders `"c"."name_cn"`
 * for `c = alias(customers, 'c')`, so renaming a column fails the type check instead of the query.
 * Row types come from the same references: `selection({ nameCn: c.nameCn, openDate: dateText(c.openDate) })`
 * renders `"c"."name_cn" as "nameCn", "c"."open_date"::text as "openDate"` and its rows are
 * `RowOf<…>` = `{ nameCn: string; openDate: string }`, nullability taken from the column.
 */
type Nullable<C extends AnyColumn> = C['_']['notNull'] extends true ? never : null;

/** Numbers (ids, money, counts) as float8: both drivers hand back a JS number (bigint and numeric would be strings). */
export const float8 = <C extends AnyColumn>(column: C) => sql<number | Nullable<C>>`${column}::float8`;
/** A date (or any column) as text: both drivers hand back the same string. */
export const asText = <C extends AnyColumn>(column: C) => sql<string | Nullable<C>>`${column}::text`;
/** A timestamp as epoch milliseconds. */
export const epochMs = <C extends AnyColumn>(column: C) => sql<number | Nullable<C>>`floor(extract(epoch from ${column}) * 1000)::float8`;

/** What a select list names: a schema column, or SQL typed with `sql<T>` (a cast, an aggregate). */
export type Selectable = AnyColumn | SQL<unknown>;
type ValueOf<S> = S extends AnyColumn ? GetColumnData<S> : S extends SQL<infer T> ? T : never;
/** A select list's columns before they are rendered: each key an output column. */
export type SelectionColumns = Record<string, Selectable>;
/** The row `selection(columns)` selects. */
export type RowOfColumns<Columns extends SelectionColumns> = { [Key in keyof Columns]: ValueOf<Columns[Key]> };
/** The select list of a row type: SQL whose rows are `Row`. */
export type Selection<Row> = SQL & { readonly __row?: Row };
export type RowOf<T> = T extends { readonly __row?: infer Row } ? Row : never;

/**
 * A select list, each value named by its key (`… as "key"`); the row type follows from the columns.
 * Built once, at load: its text is rendered here (`renderedOnce`), so it must bind no value — a list
 * that carries a request's values is a `selectionWithValues`.
 */
export function selection<Columns extends SelectionColumns>(columns: Columns): Selection<RowOfColumns<Columns>> {
  const list = selectionWithValues(columns);
  const rendered = renderedOnce(list);
  if (rendered === list) throw new Error(`selection(${Object.keys(columns).join(', ')}) binds values: use selectionWithValues`);
  return rendered;
}

/** A select list that binds a request's values (a subquery on the caller's book, say): built per request, rendered with its statement. */
export function selectionWithValues<Columns extends SelectionColumns>(columns: Columns): Selection<RowOfColumns<Columns>> {
  return sql.join(
    Object.entries(columns).map(([key, value]) => sql`${value} as ${sql.identifier(key)}`),
    // One column a line: a snapshot diff (ADR 0027) then names the column that changed.
    sql`,\n`,
  );
}

const dialect = new PgDialect();
/**
 * A fragment without values, rendered to its text now instead of on every statement that uses it.
 * Drizzle renders a query by walking every chunk and checking each one's kind, so a select list of
 * column references built once at module load was still walked on every request: on a client detail
 * call that walk was a third of the server's CPU (ADR 0027). A fragment that binds values keeps its
 * chunks, since its parameter numbers depend on where it stands in the statement.
 */
export function renderedOnce<Fragment extends SQL>(fragment: Fragment): Fragment {
  const { sql: text, params } = dialect.sqlToQuery(fragment);
  return (params.length === 0 ? sql.raw(text) : fragment) as Fragment;
}

/**
 * A statement whose text never changes, rendered once: the request's values stand in it as named
 * placeholders (`sql.placeholder('name')`), and each call binds them into an SQL of one chunk per text
 * run and value, which renders in a few microseconds. `renderedOnce` cannot help a statement that binds
 * values, so a large one (the client timeline: seven branches, hundreds of column references) was walked
 * chunk by chunk on every request. The text and the parameter numbers are exactly what rendering the
 * same statement per request gives (the SQL snapshots do not change).
 */
export function renderedTemplate<Row>(query: RowsQuery<Row>): (values: Record<string, unknown>) => RowsQuery<Row> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  // Drizzle numbers parameters $1, $2, … in order of appearance: split the text there.
  const pieces = text.split(/\$(\d+)(?!\d)/);
  const runs: StringChunk[] = [];
  pieces.forEach((piece, at) => {
    if (at % 2 === 0) runs.push(new StringChunk(piece));
    else if (Number(piece) !== (at + 1) / 2) throw new Error(`renderedTemplate: $${piece} out of order (a literal "$" in the text?)`);
  });
  if (runs.length !== params.length + 1) throw new Error(`renderedTemplate: ${runs.length - 1} markers for ${params.length} parameters`);
  return (values) => {
    const bound = fillPlaceholders(params, values);
    const chunks: SQLChunk[] = [runs[0]];
    bound.forEach((value, at) => chunks.push(new Param(value), runs[at + 1]));
    return rowsQuery<Row>(new SQL(chunks));
  };
}

/** `select <columns> <rest>`, typed by its select list. */
export const selectQuery = <Row>(columns: Selection<Row>, rest: SQL) => rowsQuery<Row>(sql`select ${columns} ${rest}`);

/** A column's bare name, where SQL takes no table prefix: SET targets and INSERT column lists. */
export const columnName = (column: AnyColumn) => sql.identifier(column.name);
/** Bare column names, comma-separated: an INSERT's column list or an ON CONFLICT target. */
export const columnNames = (...columns: AnyColumn[]) =>
  sql.join(
    columns.map((column) => columnName(column)),
    sql`, `,
  );

const aliasedTables = new WeakMap<object, { table: PgTable; name: string; fromItem: SQL }>();
/**
 * `alias(table, name)` whose columns render `"name"."column"`, remembered so `tableAs(alias)` can
 * write the FROM item `"table" "name"` (Drizzle renders the alias alone as just `"name"`).
 */
export function tableAlias<Table extends PgTable, Name extends string>(table: Table, name: Name) {
  const aliased = alias(table, name);
  aliasedTables.set(aliased, { table, name, fromItem: renderedOnce(sql`${table} ${sql.identifier(name)}`) });
  return aliased;
}
function aliasedTable(aliased: object) {
  const entry = aliasedTables.get(aliased);
  if (!entry) throw new Error('tableAs: not made by tableAlias');
  return entry;
}
export const tableAs = (aliased: object): SQL => aliasedTable(aliased).fromItem;
/** The target of `insert into`, which wants the AS: `"table" as "name"`. */
export function insertTarget(aliased: object): SQL {
  const { table, name } = aliasedTable(aliased);
  return sql`${table} as ${sql.identifier(name)}`;
}

/** A column of an outer-joined table: null when no row joined, whatever the column allows. */
export const outerJoined = <C extends AnyColumn>(column: C) => sql<GetColumnData<C, 'raw'> | null>`${column}`;
/** The value a column holds in a row (null where the column allows it). */
export type ColumnValue<C extends AnyColumn> = GetColumnData<C>;
