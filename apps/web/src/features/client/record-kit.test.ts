import { expect, test, vi } from 'vitest';
import { periodRange } from './record-kit';

test('period → HK-day range: presets count back from today, a custom range reads either way round', () => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date(Date.UTC(2026, 10, 21, 3, 0)));
  expect(periodRange('all')).toEqual({});
  expect(periodRange('m3')).toEqual({ dateFrom: '2026-08-21' });
  expect(periodRange('custom', '2026-03-01', '2026-01-01')).toEqual({ dateFrom: '2026-01-01', dateTo: '2026-03-01' });
  expect(periodRange('custom', '', '2026-01-31')).toEqual({ dateTo: '2026-01-31' });
  vi.useRealTimers();
});
