/** Dates as whole days since 1970-01-01 (UTC): cheap arithmetic, no time zones. */

const MS_PER_DAY = 86_400_000;

export function parseDay(iso: string): number {
  const ms = Date.parse(`${iso}T00:00:00Z`);
  if (Number.isNaN(ms)) throw new Error(`not a date: ${iso}`);
  return Math.floor(ms / MS_PER_DAY);
}

export function formatDay(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

export function isWeekday(day: number): boolean {
  // 1970-01-01 was a Thursday.
  const weekday = (day + 4) % 7;
  return weekday !== 0 && weekday !== 6;
}

/** Weekdays in [from, to]; public holidays are ignored (good enough for demo data). */
export function weekdaysBetween(from: number, to: number): number[] {
  const days: number[] = [];
  for (let day = from; day <= to; day++) if (isWeekday(day)) days.push(day);
  return days;
}
