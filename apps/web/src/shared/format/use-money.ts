import type { Currency } from '@broker/contract';
import { useAppSettings, type CurrencyConfig } from '../session/app-settings-store';
import { convertAmount } from './currency-conversion';
import { formatNumber } from './number-format';

export interface Money {
  currency: Currency;
  /** An HKD amount in the chosen currency (null without an amount or a rate). */
  convert(hkd: number | null | undefined): number | null;
  /** An HKD amount in the chosen currency, grouped, 2 decimals; `-` for nothing. */
  format(hkd: number | null | undefined, decimals?: number): string;
  /** As `format`, with a leading `+` for gains (P/L figures). */
  formatSigned(hkd: number | null | undefined, decimals?: number): string;
}

/** Every amount on screen goes through here, so the currency switch converts all of them at once. */
export function useMoney(): Money {
  const currency = useAppSettings((settings) => settings.currency);
  const config = useAppSettings((settings) => settings.currencyConfig);
  return moneyIn(currency, config);
}

/** `useMoney`'s formatter for a given currency and rates, for code that formats outside a component (and its tests). */
export function moneyIn(currency: Currency, config: CurrencyConfig): Money {
  const convert = (hkd: number | null | undefined) => convertAmount(hkd, currency, config);
  const format = (hkd: number | null | undefined, decimals = 2) => formatNumber(convert(hkd), decimals);
  const formatSigned = (hkd: number | null | undefined, decimals = 2) => {
    const value = convert(hkd);
    const text = formatNumber(value, decimals);
    return value !== null && value > 0 && /[1-9]/.test(text) ? `+${text}` : text;
  };
  return { currency, convert, format, formatSigned };
}

/** `up` / `down` / `flat` for colouring P/L and flows; which colour each takes is the reader's setting (trend-colours.ts). */
export function trendOf(value: number | null | undefined): 'up' | 'down' | 'flat' {
  if (value === null || value === undefined || !Number.isFinite(value) || Math.abs(value) < 0.005) return 'flat';
  return value > 0 ? 'up' : 'down';
}

export { formatSignedPercent } from './number-format';
