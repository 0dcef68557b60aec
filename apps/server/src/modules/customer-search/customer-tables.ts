import { tableAlias, tableAs, type RowOfColumns, type SelectionColumns } from '../../db/sql-rows';
import { accounts, customers, kycBindings, staffBookSummary, staffBookVersion } from '../../db/schema';

/**
 * The tables a customer search reads, under the short names its SQL has always used (the plan guard,
 * EXPLAIN output and docs/data-model.md speak of `c.staff_id`). Columns are named through the schema
 * (ADR 0027): `${c.staffId}` renders `"c"."staff_id"`, so renaming a column fails the type check.
 */
export const c = tableAlias(customers, 'c');
export const a = tableAlias(accounts, 'a');
export const k = tableAlias(kycBindings, 'k');
export const b = tableAlias(staffBookSummary, 'b');
export const v = tableAlias(staffBookVersion, 'v');

/** The FROM items: `"customer" "c"` … */
export const customerC = tableAs(c);
export const accountA = tableAs(a);
export const kycBindingK = tableAs(k);
export const bookSummaryB = tableAs(b);
export const bookVersionV = tableAs(v);

/** What a row shape (`Selection`) is written over: the searched customer `c`, and `a`, `k` for its subqueries; `b`, the book's summary. */
export const searchAliases = { c, a, k, b, accountA, kycBindingK, bookSummaryB } as const;

/**
 * A row shape: each key is an output column. A schema column gives its row type from the schema;
 * anything the driver would hand back otherwise than the schema says (bigint and numeric come back as
 * text from pg, dates as Date, and a page travels through JSON: ADR 0008) is cast in SQL and typed
 * with `sql<T>`. `createCustomerSearch` renders it once, with `selection` (db/sql-rows.ts).
 */
export type Selection = SelectionColumns;
export type RowOf<S extends Selection> = RowOfColumns<S>;
