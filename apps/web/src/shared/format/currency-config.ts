import type { Currency } from '@broker/contract';
import type { CurrencyConfig } from '../session/app-settings-store';

/** The currency map from the exchange rates (HKD is 1), apart from Money's arithmetic, which start-up does not load. */
export function currencyConfigFrom(rates: readonly { toCcy: Currency; rate: number }[]): CurrencyConfig {
  const config: CurrencyConfig = { HKD: 1 };
  for (const { toCcy, rate } of rates) if (toCcy !== 'HKD') config[toCcy] = rate;
  return config;
}
