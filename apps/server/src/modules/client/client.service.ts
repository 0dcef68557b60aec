import type { z } from 'zod';
import {
  customerStatusSchema,
  marketSchema,
  type CustomerAsset,
  type CustomerBaseInfo,
  type CustomerProfile,
  type CustomerReach,
  type PhoneRevealPurpose,
  type HoldingItem,
  type Market,
  type TradeItem,
  type getTimeline,
  type updateProfile,
} from '@broker/contract';
import {
  HKD,
  add,
  compare,
  convert,
  maskPhone,
  money,
  normalisePhone,
  subtract,
  sum,
  sumAsShown,
  times,
  toCents,
  toNumber,
  zero,
  type ExchangeRates,
  type Money,
} from '@broker/domain';
import { ApiError } from '../../http/api-error';
import { scopeOf, type Caller } from '../../http/caller';
import type { RowSets, RowsQuery } from '../../db/sql-rows';
import { clientQueries } from './client.repository';
import { timelinePage } from './client-timeline.repository';
import { dynamicOptions, timelineOptions, timelinePageOf, toDynamicItem } from './client-timeline.service';
import type {
  ClientRepository,
  CustomerRow,
  MoneyFilter,
  Paging,
  ProfileChanges,
  Scope,
  TradeFilter,
  TransferFilter,
} from './client.repository';

type ProfileUpdate = z.output<typeof updateProfile.request>;
type TimelineRequest = z.output<typeof getTimeline.request>;

const paged = <T>(list: T[], total: number, paging: Paging) => ({
  list,
  total,
  pageNum: paging.pageNum,
  pageSize: paging.pageSize,
  hasMore: paging.pageNum * paging.pageSize < total,
});

const checkRange = (from: string | undefined, to: string | undefined) => {
  if (from && to && from > to) throw ApiError.validation('query.dateFrom', `must not be after dateTo (${to})`);
};

const rateMap = (rows: Array<{ currency: string; rate: number }>): ExchangeRates => new Map(rows.map((row) => [row.currency, row.rate]));

/** An amount read from the database, in HKD. Amounts cross the wire as float8 but are added as Money. */
const inHkd = (amount: number, currency: string, rates: ExchangeRates) => convert(money(amount, currency), HKD, rates);

/** An amount as an item shows it: in its own currency, and in HKD at the latest rate, to the cent. */
const amountWithHkd = (row: { amount: number; currency: string }, rates: ExchangeRates) => ({
  amount: row.amount,
  currency: row.currency,
  amountHkd: toCents(inHkd(row.amount, row.currency, rates)),
});

/** A part of a whole, to 4 decimals; 0 when the whole is not positive. */
const share = (part: Money, whole: Money) => (whole.units > 0n ? Math.round((toNumber(part) / toNumber(whole)) * 10_000) / 10_000 : 0);

/** Whole-share quantities and prices come back as numbers; a market we do not list is a data error. */
const market = (value: string): Market => marketSchema.parse(value);

/** A holding's, a trade's or a transfer's security: its symbol, its names and its market. */
const securityOf = (row: { symbol: string; nameCn: string; nameHk: string | null; nameEn: string; market: string }) => ({
  symbol: row.symbol,
  nameCn: row.nameCn,
  nameHk: row.nameHk,
  nameEn: row.nameEn,
  market: market(row.market),
});

export function toBaseInfo(row: CustomerRow): CustomerBaseInfo {
  return {
    customerId: row.id,
    customerNo: row.customerNo,
    nameCn: row.nameCn,
    nameEn: row.nameEn,
    gender: row.gender,
    birthday: row.birthday,
    phoneMasked: maskPhone(row.phone),
    email: row.email,
    idDocType: row.idDocType,
    idDocMasked: row.idDocMasked,
    idDocExpiry: row.idDocExpiry,
    riskLevel: row.riskLevel,
    riskAssessedOn: row.riskAssessedOn,
    status: customerStatusSchema.parse(row.status),
    channel: row.channel,
    openDate: row.openDate,
    closedDate: row.closedDate,
    tags: row.tags,
    remark: row.remark,
    accounts: row.accounts,
    version: row.version,
    updatedAt: Math.round(row.updatedAt),
  };
}

export function createClientService(repository: ClientRepository) {
  /** 404 when the corp has no such client, 403 when another manager serves it. */
  function requireOwn(scope: Scope, customerId: number, owner: number | null) {
    if (owner === null) throw ApiError.notFound(`customerId: there is no client ${customerId}`);
    if (owner !== scope.staffId)
      throw ApiError.forbidden(`customerId: client ${customerId} is served by another client manager; you can only open your own clients`);
  }

  /** The caller's scope for this client, checked on its own (for writes); the queries after it carry the scope again. */
  async function scopeFor(caller: Caller, customerId: number): Promise<Scope> {
    const scope = scopeOf(caller);
    requireOwn(scope, customerId, await repository.ownerOf(scope.corpId, customerId));
    return scope;
  }

  /**
   * A page's reads of the caller's own client, sent with the ownership check as one statement;
   * then 404 (no such client in the corp) or 403 (another manager's client).
   */
  async function readOwn<Queries extends Record<string, RowsQuery<unknown>>>(
    caller: Caller,
    customerId: number,
    queries: (scope: Scope) => Queries,
  ): Promise<RowSets<Queries>> {
    const scope = scopeOf(caller);
    const { owner, sets } = await repository.read(scope.corpId, customerId, queries(scope));
    requireOwn(scope, customerId, owner);
    return sets;
  }

  /** readOwn with the latest exchange rates in the same statement, for the pages that show HKD values. */
  async function readOwnWithRates<Queries extends Record<string, RowsQuery<unknown>>>(
    caller: Caller,
    customerId: number,
    queries: (scope: Scope) => Queries,
  ): Promise<RowSets<Queries> & { rates: ExchangeRates }> {
    const { rateRows, ...sets } = await readOwn(caller, customerId, (scope) => ({ rateRows: clientQueries.rates(), ...queries(scope) }));
    // The rows of `rates()`, which TypeScript cannot see through the generic spread.
    return { ...(sets as RowSets<Queries>), rates: rateMap(rateRows as Array<{ currency: string; rate: number }>) };
  }

  async function customer(caller: Caller, customerId: number): Promise<CustomerRow> {
    const {
      customer: [row],
    } = await readOwn(caller, customerId, (scope) => ({ customer: clientQueries.customer(scope, customerId) }));
    if (!row) throw ApiError.notFound(`customerId: there is no client ${customerId}`);
    return row;
  }

  return {
    async profile(caller: Caller, customerId: number): Promise<CustomerProfile> {
      const row = await customer(caller, customerId);
      return {
        customerId: row.id,
        customerNo: row.customerNo,
        nameCn: row.nameCn,
        nameEn: row.nameEn,
        gender: row.gender,
        phoneMasked: maskPhone(row.phone),
        status: customerStatusSchema.parse(row.status),
        riskLevel: row.riskLevel,
        channel: row.channel,
        tags: row.tags,
        kycBound: row.kycBound,
        kycStale: row.kycStale,
        openDate: row.openDate,
        lastTradeDate: row.lastTradeDate,
        totalAssetsHkd: toCents(money(row.totalAssetsHkd, HKD)),
        version: row.version,
      };
    },

    async baseInfo(caller: Caller, customerId: number): Promise<CustomerBaseInfo> {
      return toBaseInfo(await customer(caller, customerId));
    },

    async reach(caller: Caller, customerId: number): Promise<CustomerReach> {
      const {
        reach: [row],
      } = await readOwn(caller, customerId, (scope) => ({ reach: clientQueries.reach(scope, customerId) }));
      if (!row) throw ApiError.notFound(`customerId: there is no client ${customerId}`);
      return {
        customerId: row.id,
        nameCn: row.nameCn,
        nameEn: row.nameEn,
        phoneMasked: maskPhone(row.phone),
        wecom: row.externalUserId === null ? null : { externalUserId: row.externalUserId, stale: row.wecomStale },
      };
    },

    /** The full number, audited (the repository writes the row with the read). */
    async revealPhone(caller: Caller, customerId: number, purpose: PhoneRevealPurpose) {
      const scope = await scopeFor(caller, customerId);
      const { found, phone } = await repository.revealPhone(scope, customerId, purpose);
      if (!found) throw ApiError.notFound(`customerId: there is no client ${customerId}`);
      return { customerId, phone, dial: phone === null ? null : `+${normalisePhone(phone).digits}` };
    },

    /** Computed live from balances and holdings at the latest prices and rates. */
    async asset(caller: Caller, customerId: number): Promise<CustomerAsset> {
      const { rates, cash, holdings } = await readOwnWithRates(caller, customerId, (scope) => ({
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
        // The parts as shown, added: the profile's cash and market value add up to its total, which is the
        // client list's (customer-summary stores round(cash, 2) + round(market value, 2)).
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
    },

    async holdings(caller: Caller, customerId: number, marketFilter: Market | undefined, paging: Paging) {
      const { rates, rows } = await readOwnWithRates(caller, customerId, (scope) => ({
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
    },

    async trades(caller: Caller, customerId: number, filter: TradeFilter, paging: Paging) {
      checkRange(filter.dateFrom, filter.dateTo);
      const { rates, list, totals } = await readOwnWithRates(caller, customerId, (scope) => ({
        ...clientQueries.trades(scope, customerId, filter, paging),
      }));
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
    },

    async moneyMovements(caller: Caller, customerId: number, filter: MoneyFilter, paging: Paging) {
      checkRange(filter.dateFrom, filter.dateTo);
      const { rates, list, totals } = await readOwnWithRates(caller, customerId, (scope) => ({
        ...clientQueries.moneyMovements(scope, customerId, filter, paging),
      }));
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
    },

    async transfers(caller: Caller, customerId: number, filter: TransferFilter, paging: Paging) {
      checkRange(filter.dateFrom, filter.dateTo);
      const { rates, list, totals } = await readOwnWithRates(caller, customerId, (scope) => ({
        ...clientQueries.transfers(scope, customerId, filter, paging),
      }));
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
    },

    /**
     * One client's timeline, newest first (ADR 0040): a keyset page of the kinds asked for, read with
     * the ownership check and the rates in one statement.
     */
    async timeline(caller: Caller, input: TimelineRequest) {
      const options = timelineOptions(input.kinds, input.cursor, input.limit);
      const { rates, rows } = await readOwnWithRates(caller, input.customerId, (scope) => ({
        rows: timelinePage(scope, input.customerId, options),
      }));
      return timelinePageOf(rows, input.limit, rates);
    },

    /** The profile's older activity feed: the timeline's query over trades, money, transfers and edits; `before` pages further back. */
    async dynamics(caller: Caller, customerId: number, before: number | undefined, limit: number) {
      const options = dynamicOptions(before, limit);
      const { rates, rows } = await readOwnWithRates(caller, customerId, (scope) => ({
        rows: timelinePage(scope, customerId, options),
      }));
      const items = rows.flatMap((row) => toDynamicItem(row, rates) ?? []);
      return { list: items.slice(0, limit), hasMore: items.length > limit };
    },

    /**
     * Saves the fields given, only if `version` is still current. A stale version changes nothing
     * and says so; the audit row holds only what actually changed.
     */
    async updateProfile(caller: Caller, input: ProfileUpdate): Promise<CustomerBaseInfo> {
      const scope = await scopeFor(caller, input.customerId);
      const result = await repository.updateProfile(scope, input.customerId, input.version, (current) => {
        const changes: ProfileChanges = {};
        const before: Record<string, unknown> = {};
        const after: Record<string, unknown> = {};
        const note = (field: keyof ProfileChanges, was: unknown, now: unknown) => {
          before[field] = was;
          after[field] = now;
        };
        if (input.nameEn !== undefined && input.nameEn !== current.nameEn) {
          changes.nameEn = input.nameEn;
          note('nameEn', current.nameEn, input.nameEn);
        }
        if (input.phone !== undefined) {
          const next = input.phone === null ? null : normalisePhone(input.phone);
          if ((next?.phone ?? null) !== current.phone) {
            changes.phone = next?.phone ?? null;
            changes.phoneDigits = next?.digits ?? null;
            note('phone', current.phone, changes.phone);
          }
        }
        if (input.email !== undefined) {
          const email = input.email === null ? null : input.email.toLowerCase();
          if (email !== current.email) {
            changes.email = email;
            note('email', current.email, email);
          }
        }
        if (input.tags !== undefined && JSON.stringify(input.tags) !== JSON.stringify(current.tags)) {
          changes.tags = input.tags;
          note('tags', current.tags, input.tags);
        }
        if (input.remark !== undefined) {
          const remark = input.remark === null || input.remark === '' ? null : input.remark;
          if (remark !== current.remark) {
            changes.remark = remark;
            note('remark', current.remark, remark);
          }
        }
        return { changes, before, after };
      });
      if (result.outcome === 'missing') throw ApiError.notFound(`customerId: there is no client ${input.customerId}`);
      if (result.outcome === 'stale') {
        throw ApiError.conflict(
          `version: someone else changed this client after you opened it (you edited version ${input.version}, it is now version ${result.currentVersion}). ` +
            'Nothing was saved and their change is kept: reload the client and apply your edit again.',
        );
      }
      return toBaseInfo(result.customer);
    },
  };
}

export type ClientService = ReturnType<typeof createClientService>;
