import { dayNumber, dayOfNumber, isCalendarDay } from '@broker/domain';

/** Dates as whole days since 1970-01-01. */

export function parseDay(iso: string): number {
  if (!isCalendarDay(iso)) throw new Error(`not a date: ${iso}`);
  return dayNumber(iso);
}

export const formatDay = dayOfNumber;

/** Public holidays are ignored (good enough for demo data). */
export function weekdaysBetween(from: number, to: number): number[] {
  const days: number[] = [];
  // 1970-01-01 was a Thursday: (day + 4) % 7 is 0 on Sundays, 6 on Saturdays.
  for (let day = from; day <= to; day++) if ((day + 4) % 7 !== 0 && (day + 4) % 7 !== 6) days.push(day);
  return days;
}
