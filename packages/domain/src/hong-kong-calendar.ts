/** Every "day" in the app is a Hong Kong day, `YYYY-MM-DD`, whatever the machine's time zone; instants go through Intl's tz data. */

export const HONG_KONG_TIME_ZONE = 'Asia/Hong_Kong';

const MS_PER_DAY = 86_400_000;

/** A calendar day, `YYYY-MM-DD`. */
export type CalendarDay = string;

/** An instant as a Date or epoch milliseconds. */
export type Instant = Date | number;

let wallClockFormat: Intl.DateTimeFormat | undefined;

/** Made on first use: building an Intl formatter costs far more than using one. */
function hongKongFormat(): Intl.DateTimeFormat {
  wallClockFormat ??= new Intl.DateTimeFormat('en-US', {
    timeZone: HONG_KONG_TIME_ZONE,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
    hourCycle: 'h23',
  });
  return wallClockFormat;
}

const epochMs = (at: Instant) => (typeof at === 'number' ? at : at.getTime());

function wallClock(at: Instant) {
  const clock = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const part of hongKongFormat().formatToParts(epochMs(at))) {
    if (part.type in clock) clock[part.type as keyof typeof clock] = Number(part.value);
  }
  return clock;
}

const pad2 = (value: number) => String(value).padStart(2, '0');
const pad4 = (value: number) => String(value).padStart(4, '0');
const dayText = (year: number, month: number, day: number) => `${pad4(year)}-${pad2(month)}-${pad2(day)}`;

/** Days since 1970-01-01 of a calendar day, and back: day arithmetic without any time zone. */
export const dayNumber = (day: CalendarDay) => Math.floor(Date.parse(`${day}T00:00:00Z`) / MS_PER_DAY);
export const dayOfNumber = (days: number): CalendarDay => new Date(days * MS_PER_DAY).toISOString().slice(0, 10);

/** The Hong Kong calendar day of an instant (now by default), `YYYY-MM-DD`. */
export function hongKongDay(at: Instant = Date.now()): CalendarDay {
  const clock = wallClock(at);
  return dayText(clock.year, clock.month, clock.day);
}

/** An instant as Hong Kong wall-clock time, `YYYY-MM-DD HH:mm`. */
export function hongKongDateTime(at: Instant): string {
  const clock = wallClock(at);
  return `${dayText(clock.year, clock.month, clock.day)} ${pad2(clock.hour)}:${pad2(clock.minute)}`;
}

/** True for a real calendar day written `YYYY-MM-DD` (not `2026-02-30`, not `2026-2-3`). */
export const isCalendarDay = (text: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) && dayOfNumber(dayNumber(text)) === text;

/** `day` moved by `days` (negative for earlier). */
export const addDays = (day: CalendarDay, days: number): CalendarDay => dayOfNumber(dayNumber(day) + days);

/** `day` moved by whole months; a day the month lacks runs over (`2026-05-31` minus 3 months is `2026-03-03`). */
export function addMonths(day: CalendarDay, months: number): CalendarDay {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + months);
  return date.toISOString().slice(0, 10);
}

/** 0 for Sunday … 6 for Saturday. */
export const weekdayOf = (day: CalendarDay) => new Date(`${day}T00:00:00Z`).getUTCDay();

/** The epoch ms of Hong Kong `day` at `time` (`HH:mm`), null when either is not real: `hongKongDateTime`'s inverse. */
export function hongKongInstant(day: CalendarDay, time: string): number | null {
  const clock = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(time);
  if (!isCalendarDay(day) || !clock) return null;
  const asUtc = Date.parse(`${day}T${time}:00Z`);
  // Hong Kong's offset at that moment, read from the tz database (one correction suffices: no DST since 1979).
  const seen = wallClock(asUtc - 8 * 3_600_000);
  const seenAsUtc = Date.UTC(seen.year, seen.month - 1, seen.day, seen.hour, seen.minute, seen.second);
  const offset = seenAsUtc - (asUtc - 8 * 3_600_000);
  return asUtc - offset;
}
