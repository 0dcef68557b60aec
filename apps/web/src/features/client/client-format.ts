import { useSearchParams } from 'react-router';
import { addMonths, hongKongDay } from '@broker/domain';
import { i18n } from '../../shared/i18n/i18n';
import { nameInLanguage } from '../../shared/format/reference-name';

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

/** A security's name in the reader's language (zh-HK: its Hong Kong Traditional name). */
export const securityName = (nameCn: string | undefined, nameEn: string | undefined, nameHk?: string | null) =>
  nameInLanguage({ cn: nameCn, hk: nameHk, en: nameEn }, i18n.language);

/** Today in Hong Kong minus a number of months, as `YYYY-MM-DD` (the start of a "last N months" period). */
export const hkDayMonthsAgo = (months: number, now = Date.now()): string => addMonths(hongKongDay(now), -months);
