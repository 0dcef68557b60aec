import type { Currency } from '@broker/contract';
import { useAppSettings, type CurrencyConfig } from '../session/app-settings-store';
import { convertAmount } from './currency-conversion';
import { formatNumber } from './number-format';

/** Every amount on screen goes through here, so the currency switch converts all of them at once. */
export function useMoney() {
  const currency = useAppSettings((settings) => settings.currency);
  const config = useAppSettings((settings) => settings.currencyConfig);
  return moneyIn(currency, config);
}

/** `useMoney`'s formatter for a given currency and rates, for code that formats outside a component (and its tests). */
export function moneyIn(currency: Currency, config: CurrencyConfig) {
  /** An HKD amount in the chosen currency (null without an amount or a rate). */
  const convert = (hkd: number | null | undefined) => convertAmount(hkd, currency, config);
  /** An HKD amount in the chosen currency, grouped, 2 decimals; `-` for nothing. */
  const format = (hkd: number | null | undefined, decimals = 2) => formatNumber(convert(hkd), decimals);
  /** As `format`, with a leading `+` for gains (P/L figures). */
  const formatSigned = (hkd: number | null | undefined, decimals = 2) => {
    const value = convert(hkd);
    const text = formatNumber(value, decimals);
    return value !== null && value > 0 && /[1-9]/.test(text) ? `+${text}` : text;
  };
  return { currency, convert, format, formatSigned };
}

/** The chosen currency and its formatters (`useMoney`, `moneyIn`). */
export type Money = ReturnType<typeof moneyIn>;

/** `up` / `down` / `flat` for colouring P/L and flows; which colour each takes is the reader's setting (trend-colours.ts). */
export function trendOf(value: number | null | undefined): 'up' | 'down' | 'flat' {
  if (value === null || value === undefined || !Number.isFinite(value) || Math.abs(value) < 0.005) return 'flat';
  return value > 0 ? 'up' : 'down';
}

export { formatSignedPercent } from './number-format';
