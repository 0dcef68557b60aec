import { marketSchema } from '@broker/contract';
import { HKD, convert, money, toCents, toNumber, type ExchangeRates, type Money } from '@broker/domain';
import type { Database } from '../../db/client';
import { selectRows, selectRowSets, type RowSets, type RowsQuery } from '../../db/sql-rows';
import { ApiError } from '../../http/api-error';
import { scopeOf, type Caller } from '../../http/caller';
import { clientQueries, type CustomerRow, type Scope } from './client.repository';

export const checkRange = (from: string | undefined, to: string | undefined) => {
  if (from && to && from > to) throw ApiError.validation('query.dateFrom', `must not be after dateTo (${to})`);
};

const rateMap = (rows: Array<{ currency: string; rate: number }>): ExchangeRates => new Map(rows.map((row) => [row.currency, row.rate]));

/** Amounts cross the wire as float8 but are added as Money. */
export const inHkd = (amount: number, currency: string, rates: ExchangeRates) => convert(money(amount, currency), HKD, rates);

/** In its own currency, and in HKD at the latest rate, to the cent. */
export const amountWithHkd = (row: { amount: number; currency: string }, rates: ExchangeRates) => ({
  amount: row.amount,
  currency: row.currency,
  amountHkd: toCents(inHkd(row.amount, row.currency, rates)),
});

/** To 4 decimals; 0 when the whole is not positive. */
export const share = (part: Money, whole: Money) =>
  whole.units > 0n ? Math.round((toNumber(part) / toNumber(whole)) * 10_000) / 10_000 : 0;

export const securityOf = (row: { symbol: string; nameCn: string; nameHk: string | null; nameEn: string; market: string }) => ({
  symbol: row.symbol,
  nameCn: row.nameCn,
  nameHk: row.nameHk,
  nameEn: row.nameEn,
  /** A market we do not list is a data error. */
  market: marketSchema.parse(row.market),
});

export const noClient = (customerId: number) => ApiError.notFound(`customerId: there is no client ${customerId}`);

function requireOwn(scope: Scope, customerId: number, owner: number | null) {
  if (owner === null) throw noClient(customerId);
  if (owner !== scope.staffId)
    throw ApiError.forbidden(`customerId: client ${customerId} is served by another client manager; you can only open your own clients`);
}

/** Checked on its own (for writes); the queries after it carry the scope again. */
export async function scopeFor(db: Database, caller: Caller, customerId: number): Promise<Scope> {
  const scope = scopeOf(caller);
  const [row] = await selectRows(db, clientQueries.owner(scope.corpId, customerId), { prepare: true });
  requireOwn(scope, customerId, row?.staffId ?? null);
  return scope;
}

/**
 * A page's reads sent with the ownership check as one statement (one round trip, one snapshot), then 404 or 403.
 * Every query carries the scope itself, so another manager's client yields empty sets anyway.
 */
export async function readOwn<Queries extends Record<string, RowsQuery<unknown>>>(
  db: Database,
  caller: Caller,
  customerId: number,
  queries: (scope: Scope) => Queries,
): Promise<RowSets<Queries>> {
  const scope = scopeOf(caller);
  // Every query here is keyed by the customer, so one plan suits every customer.
  const { owner, ...sets } = await selectRowSets(
    db,
    { owner: clientQueries.owner(scope.corpId, customerId), ...queries(scope) },
    { prepare: true },
  );
  requireOwn(scope, customerId, (owner as Array<{ staffId: number }>)[0]?.staffId ?? null);
  return sets as unknown as RowSets<Queries>;
}

/** With the latest exchange rates in the same statement. */
export async function readOwnWithRates<Queries extends Record<string, RowsQuery<unknown>>>(
  db: Database,
  caller: Caller,
  customerId: number,
  queries: (scope: Scope) => Queries,
): Promise<RowSets<Queries> & { rates: ExchangeRates }> {
  const { rateRows, ...sets } = await readOwn(db, caller, customerId, (scope) => ({ rateRows: clientQueries.rates(), ...queries(scope) }));
  return { ...(sets as RowSets<Queries>), rates: rateMap(rateRows as Array<{ currency: string; rate: number }>) };
}

export async function customerOf(db: Database, caller: Caller, customerId: number): Promise<CustomerRow> {
  const {
    customer: [row],
  } = await readOwn(db, caller, customerId, (scope) => ({ customer: clientQueries.customer(scope, customerId) }));
  if (!row) throw noClient(customerId);
  return row;
}
