import { describe, expect, it } from 'vitest';
import { percentile, summarize } from './stats';

describe('percentile (nearest rank)', () => {
  const oneToHundred = Array.from({ length: 100 }, (_, index) => index + 1);

  it('picks the observed value with p % of values at or below it', () => {
    expect(percentile(oneToHundred, 50)).toBe(50);
    expect(percentile(oneToHundred, 95)).toBe(95);
    expect(percentile(oneToHundred, 99)).toBe(99);
    expect(percentile(oneToHundred, 100)).toBe(100);
    expect(percentile(oneToHundred, 0.5)).toBe(1);
  });

  it('never interpolates between observations', () => {
    expect(percentile([1, 10], 50)).toBe(1);
    expect(percentile([1, 10], 51)).toBe(10);
    expect(percentile([2, 4, 6, 8], 50)).toBe(4);
  });

  it('gives the only value for one observation and NaN for none', () => {
    expect(percentile([7.5], 99)).toBe(7.5);
    expect(percentile([], 50)).toBeNaN();
  });

  it('rejects a p outside (0, 100]', () => {
    expect(() => percentile([1], 0)).toThrow(/p must be in \(0, 100\]/);
    expect(() => percentile([1], 101)).toThrow(RangeError);
  });
});

describe('summarize', () => {
  it('sorts numerically (not as strings) before taking percentiles', () => {
    const summary = summarize([10, 9, 100, 2, 1.5]);
    expect(summary).toMatchObject({ count: 5, p50: 9, p95: 100, p99: 100, max: 100 });
    expect(summary.mean).toBeCloseTo(24.5, 10);
  });

  it('keeps the p99 tail that a few slow requests make', () => {
    const latencies = [...Array.from({ length: 980 }, () => 2), ...Array.from({ length: 20 }, () => 80)];
    expect(summarize(latencies)).toMatchObject({ p50: 2, p95: 2, p99: 80 });
  });

  it('reports an empty measurement as NaN figures, not zeros that would pass a target', () => {
    const summary = summarize([]);
    expect(summary.count).toBe(0);
    expect(summary.p50).toBeNaN();
    expect(summary.p95).toBeNaN();
    expect(summary.mean).toBeNaN();
  });
});
