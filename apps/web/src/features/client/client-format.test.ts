import { expect, test } from 'vitest';
import { formatHkDateTime, hkDayMonthsAgo, priceDecimals } from './client-format';

test('times are shown in Hong Kong time whatever the phone is set to', () => {
  expect(formatHkDateTime(Date.UTC(2026, 10, 20, 16, 5))).toBe('2026-11-21 00:05');
  expect(formatHkDateTime(Date.UTC(2026, 10, 20, 16, 5), false)).toBe('2026-11-21');
});

test('a period starts N months before today in Hong Kong', () => {
  expect(hkDayMonthsAgo(3, Date.UTC(2026, 10, 20, 17, 0))).toBe('2026-08-21');
  expect(hkDayMonthsAgo(12, Date.UTC(2026, 0, 10, 0, 0))).toBe('2025-01-10');
});

test('prices keep their decimals, between 2 and 4', () => {
  expect(priceDecimals(86.4)).toBe(2);
  expect(priceDecimals(189.18)).toBe(2);
  expect(priceDecimals(36.6429)).toBe(4);
  expect(priceDecimals(0.123456)).toBe(4);
});
