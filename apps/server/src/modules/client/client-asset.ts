import type { CustomerAsset } from '@broker/contract';
import { HKD, add, compare, convert, money, subtract, sumAsShown, times, toCents, zero, type Money } from '@broker/domain';
import type { Database } from '../../db/client';
import type { Caller } from '../../http/caller';
import { clientQueries } from './client.repository';
import { readOwnWithRates, share } from './client-reads';

/** Computed live from balances and holdings at the latest prices and rates. */
export async function getAsset(db: Database, caller: Caller, customerId: number): Promise<CustomerAsset> {
  const { rates, cash, holdings } = await readOwnWithRates(db, caller, customerId, (scope) => ({
    cash: clientQueries.cashByCurrency(scope, customerId),
    holdings: clientQueries.holdings(scope, customerId),
  }));
  const byCurrency = new Map<string, { cashHkd: Money; marketValueHkd: Money; amount: Money }>();
  const byMarket = new Map<string, Money>();
  const slot = (currency: string) =>
    byCurrency.get(currency) ??
    byCurrency.set(currency, { cashHkd: zero(HKD), marketValueHkd: zero(HKD), amount: zero(currency) }).get(currency)!;
  let cashHkd = zero(HKD);
  for (const row of cash) {
    const balance = money(row.balance, row.currency);
    const hkd = convert(balance, HKD, rates);
    cashHkd = add(cashHkd, hkd);
    const entry = slot(row.currency);
    entry.cashHkd = add(entry.cashHkd, hkd);
    entry.amount = add(entry.amount, balance);
  }
  let marketValueHkd = zero(HKD);
  let todayPnlHkd = zero(HKD);
  let previousValueHkd = zero(HKD);
  let priceDate: string | null = null;
  for (const row of holdings) {
    const lastPrice = money(row.lastPrice, row.currency);
    const prevClose = money(row.prevClose, row.currency);
    const value = times(lastPrice, row.quantity);
    const hkd = convert(value, HKD, rates);
    marketValueHkd = add(marketValueHkd, hkd);
    todayPnlHkd = add(todayPnlHkd, convert(times(subtract(lastPrice, prevClose), row.quantity), HKD, rates));
    previousValueHkd = add(previousValueHkd, convert(times(prevClose, row.quantity), HKD, rates));
    byMarket.set(row.market, add(byMarket.get(row.market) ?? zero(HKD), hkd));
    const entry = slot(row.currency);
    entry.marketValueHkd = add(entry.marketValueHkd, hkd);
    entry.amount = add(entry.amount, value);
    if (!priceDate || row.priceDate > priceDate) priceDate = row.priceDate;
  }
  const total = add(cashHkd, marketValueHkd);
  return {
    // The parts as shown, added: the profile's total is the client list's (round(cash, 2) + round(market value, 2)).
    totalAssetsHkd: toCents(sumAsShown([cashHkd, marketValueHkd], HKD)),
    cashHkd: toCents(cashHkd),
    marketValueHkd: toCents(marketValueHkd),
    todayPnlHkd: toCents(todayPnlHkd),
    todayPnlRatio: share(todayPnlHkd, previousValueHkd),
    byMarket: [...byMarket]
      .sort((a, b) => compare(b[1], a[1]))
      .map(([key, value]) => ({
        key,
        cashHkd: 0,
        marketValueHkd: toCents(value),
        totalHkd: toCents(value),
        ratio: share(value, total),
      })),
    byCurrency: [...byCurrency]
      .map(([key, entry]) => ({
        key,
        cashHkd: toCents(entry.cashHkd),
        marketValueHkd: toCents(entry.marketValueHkd),
        totalHkd: toCents(sumAsShown([entry.cashHkd, entry.marketValueHkd], HKD)),
        ratio: share(add(entry.cashHkd, entry.marketValueHkd), total),
        amount: toCents(entry.amount),
      }))
      .sort((a, b) => b.totalHkd - a.totalHkd),
    priceDate,
  };
}
