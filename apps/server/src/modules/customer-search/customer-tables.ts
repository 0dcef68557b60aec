import { sql, type Column, type GetColumnData, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { accounts, customers, kycBindings, staffBookSummary, staffBookVersion } from '../../db/schema';

/**
 * The tables a customer search reads, under the short names its SQL has always used (the plan guard,
 * EXPLAIN output and docs/data-model.md speak of `c.staff_id`). Columns are named through the schema:
 * `${c.staffId}` renders `"c"."staff_id"`, so renaming a column fails the type check.
 */
export const c = alias(customers, 'c');
export const a = alias(accounts, 'a');
export const k = alias(kycBindings, 'k');
export const b = alias(staffBookSummary, 'b');
export const v = alias(staffBookVersion, 'v');

/** An alias renders as its name alone inside `sql`; a FROM needs the table beside it: `"customer" "c"`. */
export const customerC = sql`${customers} ${c}`;
export const accountA = sql`${accounts} ${a}`;
export const kycBindingK = sql`${kycBindings} ${k}`;
export const bookSummaryB = sql`${staffBookSummary} ${b}`;
export const bookVersionV = sql`${staffBookVersion} ${v}`;

/** What a row shape (`Selection`) is written over: the searched customer `c`, and `a`, `k` for its subqueries; `b`, the book's summary. */
export const searchAliases = { c, a, k, b, accountA, kycBindingK, bookSummaryB } as const;

/**
 * A select list: each key is an output column. A schema column gives its row type from the schema;
 * anything the driver would hand back otherwise than the schema says (bigint and numeric come back as
 * text from pg, dates as Date, and a page travels through JSON: ADR 0008) is cast in SQL and typed
 * with `sql<T>`.
 */
export type Selection = Record<string, Column | SQL<unknown>>;
export type RowOf<S extends Selection> = {
  [Key in keyof S]: S[Key] extends Column ? GetColumnData<S[Key]> : S[Key] extends SQL<infer Value> ? Value : never;
};

export const selectList = (selection: Selection): SQL =>
  sql.join(
    Object.entries(selection).map(([key, value]) => sql`${value} as ${sql.identifier(key)}`),
    sql`, `,
  );
