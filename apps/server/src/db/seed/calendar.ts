import { dayNumber, dayOfNumber, isCalendarDay } from '@broker/domain';

/** Dates as whole days since 1970-01-01. */

export function parseDay(iso: string): number {
  if (!isCalendarDay(iso)) throw new Error(`not a date: ${iso}`);
  return dayNumber(iso);
}

export const formatDay = dayOfNumber;

export function isWeekday(day: number): boolean {
  // 1970-01-01 was a Thursday.
  const weekday = (day + 4) % 7;
  return weekday !== 0 && weekday !== 6;
}

/** Public holidays are ignored (good enough for demo data). */
export function weekdaysBetween(from: number, to: number): number[] {
  const days: number[] = [];
  for (let day = from; day <= to; day++) if (isWeekday(day)) days.push(day);
  return days;
}
