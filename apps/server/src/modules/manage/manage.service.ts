import type { z } from 'zod';
import {
  customerStatusSchema,
  paged,
  type CustomerListItem,
  type CustomerStat,
  type searchCustomers,
  type statCustomers,
} from '@broker/contract';
import { HKD, convert, maskPhone, money, roundTo, toNumber, type ExchangeRates, type Rounding } from '@broker/domain';
import { ApiError } from '../../http/api-error';
import type { Caller } from '../../http/caller';
import { interpretKeyword, matchedOn, type CustomerCriteria } from '../customer-search';
import type { ManageRepository } from './manage.repository';

type Filters = z.output<typeof statCustomers.request>;
type SearchInput = z.output<typeof searchCustomers.request>;

/** Integers, so channel totals add up to the overall total exactly. */
const cents = (value: string) => Math.round(Number(value) * 100);

export function createManageService(repository: ManageRepository) {
  /** Asset bounds converted from `ccy` to HKD. */
  async function criteriaOf(caller: Caller, filters: Filters): Promise<CustomerCriteria> {
    const { assetMin, assetMax, openDateFrom, openDateTo } = filters;
    if (assetMin !== undefined && assetMax !== undefined && assetMin > assetMax)
      throw ApiError.validation('body.assetMin', `must not be more than assetMax (${assetMax})`);
    if (openDateFrom && openDateTo && openDateFrom > openDateTo)
      throw ApiError.validation('body.openDateFrom', `must not be after openDateTo (${openDateTo})`);
    const ccy = filters.ccy;
    let rates: ExchangeRates = new Map();
    if (ccy !== HKD && (assetMin !== undefined || assetMax !== undefined)) {
      const found = await repository.rate(ccy);
      if (!found) throw ApiError.validation('body.ccy', 'has no exchange rate yet; filter in HKD');
      rates = new Map([[ccy, found]]);
    }
    // Widened to the cent so a client exactly at the bound stays in after conversion.
    const boundHkd = (amount: number | undefined, rounding: Rounding) =>
      amount === undefined ? undefined : toNumber(roundTo(convert(money(amount, ccy), HKD, rates, rounding), 2, rounding));
    return {
      corpId: caller.corp.id,
      staffId: caller.staffId,
      keyword: interpretKeyword(filters.keyword),
      channels: filters.channels,
      statuses: filters.statuses,
      assetMinHkd: boundHkd(assetMin, 'floor'),
      assetMaxHkd: boundHkd(assetMax, 'ceil'),
      openDateFrom,
      openDateTo,
      kycBound: filters.kycBound,
      markets: filters.markets,
      hasHolding: filters.hasHolding,
    };
  }

  return {
    async channels(caller: Caller) {
      return repository.channels(caller.corp.id, caller.staffId);
    },

    async search(caller: Caller, input: SearchInput) {
      const criteria = await criteriaOf(caller, input);
      const { rows, total } = await repository.search(criteria, input);
      const list: CustomerListItem[] = rows.map((row) => ({
        customerId: row.id,
        customerNo: row.customerNo,
        nameCn: row.nameCn,
        nameEn: row.nameEn,
        phoneMasked: maskPhone(row.phone),
        idDocMasked: row.idDocMasked,
        accountNos: row.accountNos,
        channel: row.channel,
        status: customerStatusSchema.parse(row.status),
        riskLevel: row.riskLevel,
        tags: row.tags,
        kycBound: row.kycBound,
        totalAssetsHkd: row.totalAssetsHkd,
        openDate: row.openDate,
        lastTradeDate: row.lastTradeDate,
        matchedOn: criteria.keyword ? matchedOn(criteria.keyword, row) : null,
      }));
      return paged(list, total, input);
    },

    async stat(caller: Caller, filters: Filters): Promise<CustomerStat> {
      const rows = await repository.stat(await criteriaOf(caller, filters));
      let totalCents = 0;
      const stat = { clients: 0, active: 0, newThisMonth: 0 };
      for (const row of rows) {
        stat.clients += row.clients;
        stat.active += row.active;
        stat.newThisMonth += row.newThisMonth;
        totalCents += cents(row.totalAssetsHkd);
      }
      return {
        ...stat,
        totalAssetsHkd: totalCents / 100,
        byChannel: rows.map((row) => ({ channel: row.channel, clients: row.clients, totalAssetsHkd: cents(row.totalAssetsHkd) / 100 })),
      };
    },
  };
}
