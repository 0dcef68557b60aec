import { describe, expect, test } from 'vitest';
import { formatNumber } from './number-format';

describe('formatNumber', () => {
  test('groups thousands', () => {
    expect(formatNumber(1234567)).toBe('1,234,567');
    expect(formatNumber(999)).toBe('999');
    expect(formatNumber(1000)).toBe('1,000');
    expect(formatNumber(-9876543.21)).toBe('-9,876,543.21');
  });
  test('fixes decimals when asked, rounding half away as toFixed does', () => {
    expect(formatNumber(1234.5, 2)).toBe('1,234.50');
    expect(formatNumber(1234.567, 2)).toBe('1,234.57');
    expect(formatNumber(1234567.891, 0)).toBe('1,234,568');
  });
  test('keeps the decimals it has without a fixed count', () => {
    expect(formatNumber(0.125)).toBe('0.125');
    expect(formatNumber(12345.6789)).toBe('12,345.6789');
  });
  test('accepts numeric strings, including already grouped ones', () => {
    expect(formatNumber('1234567.5', 1)).toBe('1,234,567.5');
    expect(formatNumber('1,234')).toBe('1,234');
  });
  test('shows a dash for nothing', () => {
    expect(formatNumber(null)).toBe('-');
    expect(formatNumber(undefined, 2)).toBe('-');
    expect(formatNumber('')).toBe('-');
    expect(formatNumber('abc')).toBe('-');
    expect(formatNumber(Number.NaN)).toBe('-');
  });
  test('no negative zero after rounding', () => {
    expect(formatNumber(-0.001, 2)).toBe('0.00');
  });
});
