import { paged, type HoldingItem, type Market } from '@broker/contract';
import { HKD, convert, money, subtract, sum, times, toCents, type Money } from '@broker/domain';
import type { Database } from '../../db/client';
import type { Caller } from '../../http/caller';
import { clientQueries, type Paging } from './client.repository';
import { readOwnWithRates, securityOf } from './client-reads';

/** At the latest prices, in HKD too, with totals over every line (not only the page). */
export async function getHolding(db: Database, caller: Caller, customerId: number, marketFilter: Market | undefined, paging: Paging) {
  const { rates, rows } = await readOwnWithRates(db, caller, customerId, (scope) => ({
    rows: clientQueries.holdings(scope, customerId, marketFilter),
  }));
  const lines = rows.map((row) => {
    const lastPrice = money(row.lastPrice, row.currency);
    const marketValue = times(lastPrice, row.quantity);
    const unrealizedPnl = times(subtract(lastPrice, money(row.avgCost, row.currency)), row.quantity);
    const todayPnl = times(subtract(lastPrice, money(row.prevClose, row.currency)), row.quantity);
    const hkd = {
      marketValue: convert(marketValue, HKD, rates),
      unrealizedPnl: convert(unrealizedPnl, HKD, rates),
      todayPnl: convert(todayPnl, HKD, rates),
    };
    const item: HoldingItem = {
      accountNo: row.accountNo,
      ...securityOf(row),
      currency: row.currency,
      quantity: row.quantity,
      avgCost: row.avgCost,
      lastPrice: row.lastPrice,
      prevClose: row.prevClose,
      marketValue: toCents(marketValue),
      marketValueHkd: toCents(hkd.marketValue),
      unrealizedPnl: toCents(unrealizedPnl),
      unrealizedPnlHkd: toCents(hkd.unrealizedPnl),
      unrealizedPnlRatio: row.avgCost > 0 ? Math.round(((row.lastPrice - row.avgCost) / row.avgCost) * 10_000) / 10_000 : 0,
      todayPnl: toCents(todayPnl),
      todayPnlHkd: toCents(hkd.todayPnl),
    };
    return { item, hkd };
  });
  lines.sort((a, b) => b.item.marketValueHkd - a.item.marketValueHkd || a.item.symbol.localeCompare(b.item.symbol));
  // Summed unrounded, then rounded once, so the totals do not drift from the rows by cents.
  const total = (pick: (hkd: (typeof lines)[number]['hkd']) => Money) =>
    toCents(
      sum(
        lines.map((line) => pick(line.hkd)),
        HKD,
      ),
    );
  const start = (paging.pageNum - 1) * paging.pageSize;
  return {
    ...paged(
      lines.slice(start, start + paging.pageSize).map((line) => line.item),
      lines.length,
      paging,
    ),
    summary: {
      marketValueHkd: total((hkd) => hkd.marketValue),
      unrealizedPnlHkd: total((hkd) => hkd.unrealizedPnl),
      todayPnlHkd: total((hkd) => hkd.todayPnl),
    },
  };
}
