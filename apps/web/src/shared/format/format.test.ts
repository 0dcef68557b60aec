import { describe, expect, test } from 'vitest';
import { formatPercent, formatPercentFigure, formatSignedPercent, formatNumber, MINUS } from './number-format';
import { formatPrice, marketOf } from './price-format';
import { formatRiskLevel } from './risk-level';
import { formatDate, formatDateTime, formatRelativeDay } from './date-format';

describe('the one formatter', () => {
  test('a price has its market’s decimals: Hong Kong 3, US and A-shares 2', () => {
    expect(formatPrice(7.62, '0939.HK')).toBe('7.620');
    expect(formatPrice(518, '0700.HK')).toBe('518.000');
    expect(formatPrice(268.4, 'AAPL')).toBe('268.40');
    expect(formatPrice(1452, '600519.SH')).toBe('1,452.00');
    expect(formatPrice(11.52, '000001.SZ')).toBe('11.52');
    expect(formatPrice(null, 'AAPL')).toBe('-');
    expect(marketOf('0700.hk')).toBe('HK');
  });

  test('one minus sign, for numbers and percentages alike', () => {
    expect(MINUS).toBe('-');
    expect(formatNumber(-1234.5, 2)).toBe('-1,234.50');
    expect(formatSignedPercent(-0.031)).toBe('-3.10%');
    expect(formatSignedPercent(0.125)).toBe('+12.50%');
    expect(formatPercent(0.125, 1)).toBe('12.5%');
    expect(formatPercentFigure(-23.46)).toBe('-23.5%');
    expect(formatPercentFigure(null)).toBe('-');
  });

  test('risk levels are R1–R5 and nothing else', () => {
    expect(formatRiskLevel(3)).toBe('R3');
    expect(formatRiskLevel('4')).toBe('R4');
    expect(formatRiskLevel('R5')).toBe('R5');
    expect(formatRiskLevel(0)).toBe('-');
    expect(formatRiskLevel(null)).toBe('-');
  });

  test('one date, one date-time, one relative day, in Hong Kong time', () => {
    const lateUtc = Date.parse('2026-11-20T17:30:00Z');
    expect(formatDate(lateUtc)).toBe('2026-11-21');
    expect(formatDateTime(lateUtc)).toBe('2026-11-21 01:30');
    expect(formatDateTime('2026-11-20T10:15:00')).toBe('2026-11-20 10:15');
    expect(formatDate('2026-11-20T10:15:00')).toBe('2026-11-20');
    expect(formatDate(null)).toBe('-');
    expect(formatRelativeDay('2026-11-21', '2026-11-21')).toBe('今天');
    expect(formatRelativeDay('2026-12-01', '2026-11-21')).toBe('12-01');
  });
});
