import { useSearchParams } from 'react-router';
import { addMonths, hongKongDateTime, hongKongDay } from '@broker/domain';
import { i18n } from '../../shared/i18n/i18n';

/** The client a page is about: `?customerId=`; null when missing or not a positive integer. */
export function useCustomerId(): number | null {
  const [params] = useSearchParams();
  const value = Number(params.get('customerId'));
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}

export const withCustomer = (path: string, customerId: number) => `${path}?customerId=${customerId}`;

export const CLIENT_PATHS = {
  profile: '/client/information',
  holdings: '/client/information/accountDetail/holdingStock',
  trades: '/client/information/accountDetail/transaction',
  money: '/client/information/moneyRecord/moneyRecord',
  transfers: '/client/information/moneyRecord/transferStock',
  edit: '/client/edit',
} as const;

/** A security's name in the user's language: English names in English, Chinese otherwise. */
export const securityName = (nameCn: string | undefined, nameEn: string | undefined) =>
  (i18n.language === 'en' ? nameEn || nameCn : nameCn || nameEn) ?? '';

/** Epoch ms as Hong Kong wall-clock time, `YYYY-MM-DD HH:mm` (the brokerage's day, whatever the phone says). */
export const formatHkDateTime = (epochMs: number, withTime = true): string => (withTime ? hongKongDateTime(epochMs) : hongKongDay(epochMs));

/** Today in Hong Kong minus a number of months, as `YYYY-MM-DD` (the start of a "last N months" period). */
export const hkDayMonthsAgo = (months: number, now = Date.now()): string => addMonths(hongKongDay(now), -months);

/** A price with the decimals it has, at least 2 and at most 4 (36.6429, 189.18, 86.40). */
export function priceDecimals(price: number): number {
  const decimals = String(price).split('.')[1]?.length ?? 0;
  return Math.min(4, Math.max(2, decimals));
}
