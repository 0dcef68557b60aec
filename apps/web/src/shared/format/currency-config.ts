import type { Currency } from '@broker/contract';
import type { CurrencyConfig } from '../session/app-settings-store';

/**
 * The currency map from the server's exchange-rate list; HKD is always 1. Apart from the conversion
 * (currency-conversion.ts) so that start-up, which stores the rates, does not load Money's arithmetic.
 */
export function currencyConfigFrom(rates: readonly { toCcy: Currency; rate: number }[]): CurrencyConfig {
  const config: CurrencyConfig = { HKD: 1 };
  for (const { toCcy, rate } of rates) if (toCcy !== 'HKD') config[toCcy] = rate;
  return config;
}
