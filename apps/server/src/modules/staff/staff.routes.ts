import { contract, currencySchema, DEFAULT_CURRENCY, type ExchangeRate } from '@broker/contract';
import { implementArea } from '../../http/endpoint-route';
import { createStaffRepository } from './staff.repository';

export const staffRoutes = implementArea(contract.staff, (app) => {
  const repository = createStaffRepository(app.database.db);
  return {
    getDefaultCcy: async ({ caller }) => {
      const settings = await repository.settings(caller.staffId);
      return { ccy: currencySchema.catch(DEFAULT_CURRENCY).parse(settings?.ccy) };
    },
    configureDefaultCcy: async ({ input, caller }) => {
      await repository.setDefaultCurrency(caller.staffId, input.ccy);
      return { ccy: input.ccy };
    },
  };
});

/** Beside the staff member's own choices: exchange rates, the MOT fold flag. */
export const settingsRoutes = implementArea(contract.settings, (app) => {
  const repository = createStaffRepository(app.database.db);
  return {
    getCurrencyExchangeRate: async () => {
      const rates: ExchangeRate[] = [{ toCcy: 'HKD', rate: 1 }];
      for (const row of await repository.latestExchangeRates()) {
        const currency = currencySchema.safeParse(row.currency);
        if (currency.success && currency.data !== 'HKD') rates.push({ toCcy: currency.data, rate: Number(row.rate) });
      }
      return rates;
    },
    isFold: async ({ caller }) => {
      const settings = await repository.settings(caller.staffId);
      return settings?.motFold ?? false;
    },
  };
});
