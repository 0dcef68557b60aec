import type { Currency } from '@broker/contract';
import type { CurrencyConfig } from '../session/app-settings-store';

/** An HKD amount in the chosen currency: multiplied by that currency's rate (SPEC.md §9). Unknown rate → null. */
export function convertAmount(amount: number | null | undefined, currency: Currency, config: CurrencyConfig): number | null {
  if (amount === null || amount === undefined || !Number.isFinite(amount)) return null;
  const rate = config[currency];
  if (rate === undefined) return null;
  return amount * rate;
}

/** The currency map from the server's exchange-rate list; HKD is always 1. */
export function currencyConfigFrom(rates: readonly { toCcy: Currency; rate: number }[]): CurrencyConfig {
  const config: CurrencyConfig = { HKD: 1 };
  for (const { toCcy, rate } of rates) if (toCcy !== 'HKD') config[toCcy] = rate;
  return config;
}
