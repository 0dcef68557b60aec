import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  addDays,
  addMonths,
  dayNumber,
  dayOfNumber,
  hongKongDateTime,
  hongKongDay,
  hongKongInstant,
  isCalendarDay,
  weekdayOf,
} from './hong-kong-calendar';

const HOUR = 3_600_000;
/** Hong Kong has kept UTC+8 without daylight saving since 1980; the app's instants are all later. */
const FROM = Date.UTC(1980, 0, 1);
const TO = Date.UTC(2100, 0, 1);
const instant = fc.integer({ min: FROM, max: TO });
const day = fc.integer({ min: dayNumber('1980-01-02'), max: dayNumber('2099-12-31') }).map(dayOfNumber);

describe('Hong Kong calendar', () => {
  test('a day begins at 16:00 UTC the evening before, whatever the time zone of the process', () => {
    expect(hongKongDay(Date.UTC(2026, 10, 20, 15, 59, 59, 999))).toBe('2026-11-20');
    expect(hongKongDay(Date.UTC(2026, 10, 20, 16, 0))).toBe('2026-11-21');
    expect(hongKongDay(new Date(Date.UTC(2026, 11, 31, 16, 0)))).toBe('2027-01-01');
    expect(hongKongDateTime(Date.UTC(2026, 10, 20, 16, 5))).toBe('2026-11-21 00:05');
  });

  test('the day of its own first instant is the day, and the instant before is the day before', () => {
    // The oracle: UTC midnight less eight hours (Hong Kong has kept UTC+8 without daylight saving since 1979).
    const startOf = (d: string) => Date.parse(`${d}T00:00:00Z`) - 8 * HOUR;
    fc.assert(
      fc.property(day, (d) => {
        const start = startOf(d);
        expect(hongKongDay(start)).toBe(d);
        expect(hongKongDay(start - 1)).toBe(addDays(d, -1));
        expect(hongKongDateTime(start)).toBe(`${d} 00:00`);
      }),
    );
  });

  test('wall-clock time is the instant eight hours on, and the same day as hongKongDay', () => {
    fc.assert(
      fc.property(instant, (at) => {
        const shifted = new Date(at + 8 * HOUR).toISOString();
        expect(hongKongDateTime(at)).toBe(`${shifted.slice(0, 10)} ${shifted.slice(11, 16)}`);
        expect(hongKongDateTime(at).slice(0, 10)).toBe(hongKongDay(at));
      }),
    );
  });

  test('adding days: inverse, additive, one weekday per day', () => {
    fc.assert(
      fc.property(day, fc.integer({ min: -3000, max: 3000 }), fc.integer({ min: -3000, max: 3000 }), (d, m, n) => {
        expect(addDays(addDays(d, m), -m)).toBe(d);
        expect(addDays(addDays(d, m), n)).toBe(addDays(d, m + n));
        expect(weekdayOf(addDays(d, n))).toBe((((weekdayOf(d) + n) % 7) + 7) % 7);
        expect(isCalendarDay(addDays(d, n))).toBe(true);
      }),
    );
    expect(weekdayOf('2026-11-20')).toBe(5);
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
  });

  test('months run over like Date#setUTCMonth', () => {
    expect(addMonths('2026-11-21', -3)).toBe('2026-08-21');
    expect(addMonths('2026-01-10', -12)).toBe('2025-01-10');
    expect(addMonths('2026-05-31', -3)).toBe('2026-03-03');
  });

  test('isCalendarDay: only real days written YYYY-MM-DD', () => {
    for (const text of ['2026-02-30', '2026-2-3', '2026-13-01', '20261120', '', '2026-11-20T00:00'])
      expect(isCalendarDay(text)).toBe(false);
    for (const text of ['2026-11-20', '2024-02-29', '1900-01-01']) expect(isCalendarDay(text)).toBe(true);
  });

  test('a Hong Kong wall-clock time names the instant hongKongDateTime writes back', () => {
    expect(hongKongInstant('2026-11-21', '00:05')).toBe(Date.UTC(2026, 10, 20, 16, 5));
    fc.assert(
      fc.property(instant, (at) => {
        const [dayText, time] = hongKongDateTime(at).split(' ') as [string, string];
        const minute = at - (((at % 60_000) + 60_000) % 60_000);
        expect(hongKongInstant(dayText, time)).toBe(minute);
      }),
    );
    for (const [dayText, time] of [
      ['2026-02-30', '10:00'],
      ['2026-11-20', '24:00'],
      ['2026-11-20', '9:00'],
      ['2026-11-20', ''],
    ])
      expect(hongKongInstant(dayText!, time!)).toBeNull();
  });
});
