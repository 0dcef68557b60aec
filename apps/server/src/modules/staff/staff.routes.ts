import type { FastifyInstance } from 'fastify';
import {
  configureDefaultCcy,
  currencySchema,
  DEFAULT_CURRENCY,
  getCurrencyExchangeRate,
  getDefaultCcy,
  isFold,
  type ExchangeRate,
} from '@broker/contract';
import { routeEndpoint } from '../../http/endpoint-route';
import { callerOf } from '../../http/caller';
import { createStaffRepository } from './staff.repository';

/** The signed-in staff member's own settings: display currency, exchange rates, MOT fold flag. */
export async function staffRoutes(app: FastifyInstance) {
  const repository = createStaffRepository(app.database.db);

  routeEndpoint(app, getDefaultCcy, async (_input, request) => {
    const settings = await repository.settings(callerOf(request).staffId);
    return { ccy: currencySchema.catch(DEFAULT_CURRENCY).parse(settings?.ccy) };
  });

  routeEndpoint(app, configureDefaultCcy, async (input, request) => {
    await repository.setDefaultCurrency(callerOf(request).staffId, input.ccy);
    return { ccy: input.ccy };
  });

  routeEndpoint(app, getCurrencyExchangeRate, async () => {
    const rates: ExchangeRate[] = [{ toCcy: 'HKD', rate: 1 }];
    for (const row of await repository.latestExchangeRates()) {
      const currency = currencySchema.safeParse(row.currency);
      if (currency.success && currency.data !== 'HKD') rates.push({ toCcy: currency.data, rate: Number(row.rate) });
    }
    return rates;
  });

  routeEndpoint(app, isFold, async (_input, request) => {
    const settings = await repository.settings(callerOf(request).staffId);
    return settings?.motFold ?? false;
  });
}
