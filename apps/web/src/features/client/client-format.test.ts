import { expect, test } from 'vitest';
import { hkDayMonthsAgo } from './client-format';

test('a period starts N months before today in Hong Kong', () => {
  expect(hkDayMonthsAgo(3, Date.UTC(2026, 10, 20, 17, 0))).toBe('2026-08-21');
  expect(hkDayMonthsAgo(12, Date.UTC(2026, 0, 10, 0, 0))).toBe('2025-01-10');
});
