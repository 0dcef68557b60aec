import { tableAlias, tableAs, type RowOfColumns, type SelectionColumns } from '../../db/sql-rows';
import { accounts, customers, kycBindings, staffBookSummary, staffBookVersion } from '../../db/schema';

/** The tables a customer search reads, under the short names the plan guard and docs/data-model.md use. */
export const c = tableAlias(customers, 'c');
export const a = tableAlias(accounts, 'a');
export const k = tableAlias(kycBindings, 'k');
export const b = tableAlias(staffBookSummary, 'b');
export const v = tableAlias(staffBookVersion, 'v');

export const customerC = tableAs(c);
export const accountA = tableAs(a);
export const kycBindingK = tableAs(k);
export const bookSummaryB = tableAs(b);
export const bookVersionV = tableAs(v);

/** `b`: the book's summary. */
export const searchAliases = { c, a, k, b, accountA, kycBindingK, bookSummaryB } as const;

/** Bigint and numeric come back as text, dates as Date, and a page travels through JSON: cast such columns in SQL. */
export type Selection = SelectionColumns;
export type RowOf<S extends Selection> = RowOfColumns<S>;
