import type { Currency } from '@broker/contract';
import { HKD, convert, money, toNumber } from '@broker/domain';
import type { CurrencyConfig } from '../session/app-settings-store';

/** An HKD amount in the chosen currency, by @broker/domain's rate rule (docs/spec.md §9). Unknown or unusable rate → null. */
export function convertAmount(amount: number | null | undefined, currency: Currency, config: CurrencyConfig): number | null {
  if (amount === null || amount === undefined || !Number.isFinite(amount)) return null;
  const rate = config[currency];
  if (rate === undefined || !(rate > 0)) return null;
  return toNumber(convert(money(amount, HKD), currency, new Map([[currency, rate]])));
}
