import { describe, expect, test } from 'vitest';
import { currencyConfigFrom } from './currency-config';
import { convertAmount } from './currency-conversion';

describe('currency conversion', () => {
  const config = currencyConfigFrom([
    { toCcy: 'USD', rate: 0.128 },
    { toCcy: 'CNY', rate: 0.92 },
  ]);

  test('multiplies an HKD amount by the chosen currency rate', () => {
    expect(convertAmount(10_000, 'USD', config)).toBeCloseTo(1280);
    expect(convertAmount(10_000, 'CNY', config)).toBeCloseTo(9200);
    expect(convertAmount(10_000, 'HKD', config)).toBe(10_000);
  });
  test('null when there is no amount or no rate', () => {
    expect(convertAmount(null, 'USD', config)).toBeNull();
    expect(convertAmount(100, 'USD', { HKD: 1 })).toBeNull();
  });
  test('HKD stays 1 whatever the list says', () => {
    expect(currencyConfigFrom([{ toCcy: 'HKD', rate: 2 }])).toEqual({ HKD: 1 });
  });
});
