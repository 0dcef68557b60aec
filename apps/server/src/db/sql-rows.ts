import { fillPlaceholders, Param, sql, SQL, StringChunk, type AnyColumn, type GetColumnData, type SQLChunk } from 'drizzle-orm';
import { preparedRunnerOf, type Database } from './client';
import { alias, PgDialect, type PgTable } from 'drizzle-orm/pg-core';

/** Queries cast what they select (`::int`, `::float8`, `::text`, epoch ms) so both drivers give the same values. */
export async function selectRows<Row>(db: Pick<Database, 'execute'>, query: RowsQuery<Row>, options: SelectOptions = {}): Promise<Row[]> {
  const runPrepared = options.prepare ? preparedRunnerOf(db) : undefined;
  if (runPrepared) return (await runPrepared(query)) as Row[];
  const result = (await db.execute(query)) as { rows: Row[] };
  return result.rows;
}

export interface SelectOptions {
  /** Only for statements whose plan does not depend on the values (`preparedRunnerOf`). */
  prepare?: boolean;
}

export const likeEscaped = (term: string) => term.replace(/[\\%_]/g, (char) => `\\${char}`);

export const containsPattern = (term: string) => `%${likeEscaped(term)}%`;

export const commaList = (chunks: SQLChunk[]) => sql.join(chunks, sql`, `);

export const valueList = (values: readonly (number | string)[]) => commaList(values.map((value) => sql`${value}`));

/** Each quoted, so an element holding `,` `"` or `{` stays one element. */
export const textArrayLiteral = (values: readonly string[]) =>
  `{${values.map((value) => `"${value.replace(/["\\]/g, (char) => `\\${char}`)}"`).join(',')}}`;

export const hkDayStart = (day: string) => sql`(${day}::date::timestamp at time zone 'Asia/Hong_Kong')`;

/**
 * Hong Kong days, `dateTo` inclusive. The end is the next Hong Kong midnight, not the start plus `interval '1 day'`:
 * that sum is taken in the session's TimeZone, and on a daylight-saving change there it is 23 or 25 hours.
 */
export const hkDays = (column: AnyColumn | SQL, range: { dateFrom?: string | undefined; dateTo?: string | undefined }) => [
  ...(range.dateFrom ? [sql`${column} >= ${hkDayStart(range.dateFrom)}`] : []),
  ...(range.dateTo ? [sql`${column} < ((${range.dateTo}::date + 1)::timestamp at time zone 'Asia/Hong_Kong')`] : []),
];

export type RowsQuery<Row> = SQL & { readonly __row?: Row };
export const rowsQuery = <Row>(query: SQL) => query as RowsQuery<Row>;
export type RowSets<Queries extends Record<string, RowsQuery<unknown>>> = {
  [Key in keyof Queries]: Queries[Key] extends RowsQuery<infer Row> ? Row[] : never;
};

/**
 * Several queries' rows in one statement: a statement's socket writes were the server's largest CPU cost
 * (ADR 0008). Each set comes back as a JSON array of objects, in its query's ORDER BY.
 */
export async function selectRowSets<Queries extends Record<string, RowsQuery<unknown>>>(
  db: Pick<Database, 'execute'>,
  queries: Queries,
  options: SelectOptions = {},
): Promise<RowSets<Queries>> {
  const columns = Object.entries(queries).map(
    ([key, query]) => sql`(select coalesce(json_agg(t), '[]'::json) from (${query}) t) as ${sql.identifier(key)}`,
  );
  const [row] = await selectRows<RowSets<Queries>>(db, sql`select ${commaList(columns)}`, options);
  return row!;
}

/** Queries name columns through the schema (ADR 0027), so a renamed column fails the type check. */
type Nullable<C extends AnyColumn> = C['_']['notNull'] extends true ? never : null;

/** Bigint and numeric would be strings. */
export const float8 = <C extends AnyColumn>(column: C) => sql<number | Nullable<C>>`${column}::float8`;
export const asText = <C extends AnyColumn>(column: C) => sql<string | Nullable<C>>`${column}::text`;
export const epochMs = <C extends AnyColumn>(column: C) => sql<number | Nullable<C>>`floor(extract(epoch from ${column}) * 1000)::float8`;

export type Selectable = AnyColumn | SQL<unknown>;
type ValueOf<S> = S extends AnyColumn ? GetColumnData<S> : S extends SQL<infer T> ? T : never;
export type SelectionColumns = Record<string, Selectable>;
export type RowOfColumns<Columns extends SelectionColumns> = { [Key in keyof Columns]: ValueOf<Columns[Key]> };
export type Selection<Row> = SQL & { readonly __row?: Row };
export type RowOf<T> = T extends { readonly __row?: infer Row } ? Row : never;

/** Rendered once at load (`renderedOnce`), so it must bind no value: that is `selectionWithValues`. */
export function selection<Columns extends SelectionColumns>(columns: Columns): Selection<RowOfColumns<Columns>> {
  const list = selectionWithValues(columns);
  const rendered = renderedOnce(list);
  if (rendered === list) throw new Error(`selection(${Object.keys(columns).join(', ')}) binds values: use selectionWithValues`);
  return rendered;
}

/** Built per request, rendered with its statement. */
export function selectionWithValues<Columns extends SelectionColumns>(columns: Columns): Selection<RowOfColumns<Columns>> {
  return sql.join(
    Object.entries(columns).map(([key, value]) => sql`${value} as ${sql.identifier(key)}`),
    // One column a line: a snapshot diff (ADR 0027) then names the column that changed.
    sql`,\n`,
  );
}

const dialect = new PgDialect();
/**
 * Drizzle walks every chunk of a query on each render: a select list built at load was a third of a detail
 * call's CPU (ADR 0027). A fragment that binds values keeps its chunks (its parameter numbers depend on place).
 */
export function renderedOnce<Fragment extends SQL>(fragment: Fragment): Fragment {
  const { sql: text, params } = dialect.sqlToQuery(fragment);
  return (params.length === 0 ? sql.raw(text) : fragment) as Fragment;
}

/**
 * A statement that binds values, rendered once: values stand as `sql.placeholder('name')` and each call binds
 * them into one chunk per text run and value. Same text and parameter numbers (the SQL snapshots show it).
 */
export function renderedTemplate<Row>(query: RowsQuery<Row>): (values: Record<string, unknown>) => RowsQuery<Row> {
  const { sql: text, params } = dialect.sqlToQuery(query);
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

export const selectQuery = <Row>(columns: Selection<Row>, rest: SQL) => rowsQuery<Row>(sql`select ${columns} ${rest}`);

/** Where SQL takes no table prefix: SET targets and INSERT column lists. */
export const columnName = (column: AnyColumn) => sql.identifier(column.name);
export const columnNames = (...columns: AnyColumn[]) => commaList(columns.map((column) => columnName(column)));

const aliasedTables = new WeakMap<object, { table: PgTable; name: string; fromItem: SQL }>();
/** Remembered so `tableAs(alias)` can write `"table" "name"` (Drizzle renders the alias alone as `"name"`). */
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
/** `insert into` wants the AS: `"table" as "name"`. */
export function insertTarget(aliased: object): SQL {
  const { table, name } = aliasedTable(aliased);
  return sql`${table} as ${sql.identifier(name)}`;
}

/** Null when no row joined, whatever the column allows. */
export const outerJoined = <C extends AnyColumn>(column: C) => sql<GetColumnData<C, 'raw'> | null>`${column}`;
export type ColumnValue<C extends AnyColumn> = GetColumnData<C>;
