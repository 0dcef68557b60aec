import type { Market } from '@broker/contract';
import { formatNumber } from './number-format';

/** The market a symbol trades on, by its suffix as the reference data writes it (0700.HK, 600519.SH, 000001.SZ, AAPL). */
export function marketOf(symbol: string | null | undefined): Market {
  const suffix = symbol?.split('.').at(-1)?.toUpperCase();
  return suffix === 'HK' || suffix === 'SH' || suffix === 'SZ' ? suffix : 'US';
}

/** Decimals per market: Hong Kong 3 (HKEX ticks reach 0.001), US and A-shares 2; every price has its market's, so they line up. */
export const PRICE_DECIMALS: Record<Market, number> = { HK: 3, US: 2, SH: 2, SZ: 2 };

/** A price (or average cost) of a security, with its market's decimals; `-` for nothing. */
export const formatPrice = (price: number | string | null | undefined, symbol: string | null | undefined): string =>
  formatNumber(price, PRICE_DECIMALS[marketOf(symbol)]);
