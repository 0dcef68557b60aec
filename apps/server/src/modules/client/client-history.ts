import { paged, type TradeItem } from '@broker/contract';
import { HKD, add, convert, money, subtract, times, toCents, zero } from '@broker/domain';
import type { Database } from '../../db/client';
import type { Caller } from '../../http/caller';
import { clientQueries, type MoneyFilter, type Paging, type TradeFilter, type TransferFilter } from './client.repository';
import { amountWithHkd, checkRange, inHkd, readOwnWithRates, securityOf } from './client-reads';

export async function getTrade(db: Database, caller: Caller, customerId: number, filter: TradeFilter, paging: Paging) {
  checkRange(filter.dateFrom, filter.dateTo);
  const { rates, list, totals } = await readOwnWithRates(db, caller, customerId, (scope) =>
    clientQueries.trades(scope, customerId, filter, paging),
  );
  const summary = { buyAmountHkd: zero(HKD), sellAmountHkd: zero(HKD), feeHkd: zero(HKD) };
  let total = 0;
  for (const row of totals) {
    total += row.count;
    if (row.side === 'buy') summary.buyAmountHkd = add(summary.buyAmountHkd, inHkd(row.amount, row.currency, rates));
    else summary.sellAmountHkd = add(summary.sellAmountHkd, inHkd(row.amount, row.currency, rates));
    summary.feeHkd = add(summary.feeHkd, inHkd(row.fee, row.currency, rates));
  }
  const items: TradeItem[] = list.map((row) => ({
    id: row.id,
    accountNo: row.accountNo,
    ...securityOf(row),
    side: row.side === 'sell' ? 'sell' : 'buy',
    quantity: row.quantity,
    price: row.price,
    ...amountWithHkd(row, rates),
    fee: row.fee,
    tradedAt: Math.round(row.tradedAt),
    settleDate: row.settleDate,
    status: row.settled ? 'settled' : 'unsettled',
  }));
  return {
    ...paged(items, total, paging),
    summary: {
      buyAmountHkd: toCents(summary.buyAmountHkd),
      sellAmountHkd: toCents(summary.sellAmountHkd),
      feeHkd: toCents(summary.feeHkd),
    },
  };
}

export async function getWithdrawalDeposit(db: Database, caller: Caller, customerId: number, filter: MoneyFilter, paging: Paging) {
  checkRange(filter.dateFrom, filter.dateTo);
  const { rates, list, totals } = await readOwnWithRates(db, caller, customerId, (scope) =>
    clientQueries.moneyMovements(scope, customerId, filter, paging),
  );
  let total = 0;
  let depositHkd = zero(HKD);
  let withdrawalHkd = zero(HKD);
  for (const row of totals) {
    total += row.count;
    if (row.direction === 'deposit') depositHkd = add(depositHkd, inHkd(row.amount, row.currency, rates));
    else withdrawalHkd = add(withdrawalHkd, inHkd(row.amount, row.currency, rates));
  }
  return {
    ...paged(
      list.map((row) => ({
        id: row.id,
        accountNo: row.accountNo,
        direction: row.direction === 'withdrawal' ? ('withdrawal' as const) : ('deposit' as const),
        ...amountWithHkd(row, rates),
        method: row.method,
        occurredAt: Math.round(row.occurredAt),
      })),
      total,
      paging,
    ),
    summary: {
      depositHkd: toCents(depositHkd),
      withdrawalHkd: toCents(withdrawalHkd),
      netHkd: toCents(subtract(depositHkd, withdrawalHkd)),
    },
  };
}

export async function getTransfer(db: Database, caller: Caller, customerId: number, filter: TransferFilter, paging: Paging) {
  checkRange(filter.dateFrom, filter.dateTo);
  const { rates, list, totals } = await readOwnWithRates(db, caller, customerId, (scope) =>
    clientQueries.transfers(scope, customerId, filter, paging),
  );
  const summary = { inCount: 0, outCount: 0, inValueHkd: zero(HKD), outValueHkd: zero(HKD) };
  for (const row of totals) {
    if (row.direction === 'in') {
      summary.inCount += row.count;
      summary.inValueHkd = add(summary.inValueHkd, inHkd(row.value, row.currency, rates));
    } else {
      summary.outCount += row.count;
      summary.outValueHkd = add(summary.outValueHkd, inHkd(row.value, row.currency, rates));
    }
  }
  return {
    ...paged(
      list.map((row) => ({
        id: row.id,
        accountNo: row.accountNo,
        direction: row.direction === 'out' ? ('out' as const) : ('in' as const),
        ...securityOf(row),
        currency: row.currency,
        quantity: row.quantity,
        counterparty: row.counterparty,
        marketValueHkd: toCents(convert(times(money(row.lastPrice, row.currency), row.quantity), HKD, rates)),
        occurredAt: Math.round(row.occurredAt),
      })),
      summary.inCount + summary.outCount,
      paging,
    ),
    summary: { ...summary, inValueHkd: toCents(summary.inValueHkd), outValueHkd: toCents(summary.outValueHkd) },
  };
}
