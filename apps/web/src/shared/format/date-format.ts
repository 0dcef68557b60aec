import { addDays, hongKongDateTime, hongKongDay } from '@broker/domain';
import { i18n } from '../i18n/i18n';
import { EMPTY_VALUE } from './number-format';

/**
 * A moment in Hong Kong wall-clock time (the brokerage's day): `2026-11-21`, `2026-11-21 14:05`, or today / tomorrow /
 * yesterday / `11-24`. ISO order in every language: it sorts and reads the same in each.
 */

/** Epoch ms, or an ISO date or date-time string as the server writes it. */
type Moment = number | string | null | undefined;

const isEmpty = (value: Moment): value is null | undefined | '' => value === null || value === undefined || value === '';

/** `2026-11-21`. */
export function formatDate(value: Moment): string {
  if (isEmpty(value)) return EMPTY_VALUE;
  if (typeof value === 'number') return Number.isFinite(value) ? hongKongDay(value) : EMPTY_VALUE;
  return /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : value;
}

/** `2026-11-21 14:05`. A string is taken as already in Hong Kong time (`2026-11-20T10:15:00` → `2026-11-20 10:15`). */
export function formatDateTime(value: Moment): string {
  if (isEmpty(value)) return EMPTY_VALUE;
  if (typeof value === 'number') return Number.isFinite(value) ? hongKongDateTime(value) : EMPTY_VALUE;
  return value.replace('T', ' ').slice(0, 16);
}

/** 今天 / 明天 / 昨天 (in the reader's language) for those days, else `11-24`. Days as `YYYY-MM-DD`. */
export function formatRelativeDay(day: string, today: string): string {
  if (day === today) return i18n.t('format.today');
  if (day === addDays(today, 1)) return i18n.t('format.tomorrow');
  if (day === addDays(today, -1)) return i18n.t('format.yesterday');
  return day.slice(5);
}
