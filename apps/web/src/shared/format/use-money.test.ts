import { expect, test } from 'vitest';
import { renderHook } from '@testing-library/react';
import { formatSignedPercent, trendOf, useMoney } from './use-money';
import { useAppSettings } from '../session/app-settings-store';

test('every amount follows the chosen currency: HKD × rate', () => {
  useAppSettings.getState().update({ currency: 'USD', currencyConfig: { HKD: 1, USD: 0.1285 } });
  const { result } = renderHook(() => useMoney());
  expect(result.current.currency).toBe('USD');
  expect(result.current.format(1_000_000)).toBe('128,500.00');
  expect(result.current.formatSigned(1000)).toBe('+128.50');
  expect(result.current.formatSigned(-1000)).toBe('-128.50');
  expect(result.current.format(null)).toBe('-');
  useAppSettings.getState().reset();
});

test('trend and signed percentages (green up, red down is decided in CSS)', () => {
  expect(trendOf(12)).toBe('up');
  expect(trendOf(-0.5)).toBe('down');
  expect(trendOf(0.001)).toBe('flat');
  expect(trendOf(null)).toBe('flat');
  expect(formatSignedPercent(0.1503)).toBe('+15.03%');
  expect(formatSignedPercent(-0.0079)).toBe('-0.79%');
  expect(formatSignedPercent(0)).toBe('0.00%');
});
