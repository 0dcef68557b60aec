import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { add, compare, convert, money, roundTo, subtract, sum, sumAsShown, times, toCents, toDecimalString, toNumber, zero } from './money';

const RATES = new Map<string, number | string>([
  ['USD', 0.1285],
  ['CNY', '0.93100000'],
]);
/** Cents as the database keeps numeric(18,2), within what a float8 carries exactly as text. */
const cents = fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n });
const centsText = (value: bigint) => {
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  return `${negative ? '-' : ''}${magnitude / 100n}.${String(magnitude % 100n).padStart(2, '0')}`;
};
const rate = fc.integer({ min: 1, max: 10 ** 10 }).map((units) => units / 10 ** 8);

describe('Money', () => {
  test('reads decimal text and database floats exactly', () => {
    expect(toDecimalString(money('1234.56', 'HKD'))).toBe('1234.56');
    expect(toDecimalString(money(1234.56, 'HKD'))).toBe('1234.56');
    expect(toDecimalString(money(0.1 + 0.2, 'HKD'))).toBe('0.3');
    expect(toDecimalString(money(1e21, 'HKD'))).toBe('1000000000000000000000');
    expect(toDecimalString(money('-0.000000005', 'HKD'))).toBe('-0.00000001');
    expect(() => money(Number.NaN, 'HKD')).toThrow(RangeError);
    expect(() => money('12,3', 'HKD')).toThrow(RangeError);
  });

  test('adds exactly where floats drift', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(toNumber(add(money(0.1, 'HKD'), money(0.2, 'HKD')))).toBe(0.3);
    expect(toNumber(times(money('36.6429', 'USD'), 3000))).toBe(109928.7);
  });

  test('sums are exact, order-free and round-trip through their decimal text', () => {
    fc.assert(
      fc.property(fc.array(cents, { maxLength: 30 }), (list) => {
        const amounts = list.map((value) => money(centsText(value), 'HKD'));
        const total = sum(amounts, 'HKD');
        expect(total.units).toBe(list.reduce((a, b) => a + b, 0n) * 10n ** 6n);
        expect(sum([...amounts].reverse(), 'HKD')).toEqual(total);
        expect(money(toDecimalString(total), 'HKD')).toEqual(total);
        if (amounts.length > 0) expect(subtract(total, amounts[0]!)).toEqual(sum(amounts.slice(1), 'HKD'));
      }),
    );
  });

  test('a total of shown parts is what the shown parts add up to, to the cent', () => {
    const cash = money('80438.66449', 'HKD');
    const marketValue = money('733066.38449', 'HKD');
    // Rounded once, the exact sum shows a cent more than its shown parts add up to.
    expect(toCents(add(cash, marketValue))).toBe(813505.05);
    expect(toCents(sumAsShown([cash, marketValue], 'HKD'))).toBe(813505.04);
    const subCents = fc.bigInt({ min: -(10n ** 17n), max: 10n ** 17n });
    fc.assert(
      fc.property(fc.array(subCents, { maxLength: 8 }), (list) => {
        const parts = list.map((units) => ({ currency: 'HKD', units }));
        const shownCents = (amount: (typeof parts)[number]) => Math.round(toCents(amount) * 100);
        expect(shownCents(sumAsShown(parts, 'HKD'))).toBe(parts.reduce((total, part) => total + shownCents(part), 0));
      }),
    );
  });

  test('a number read as money and written back is the same number', () => {
    fc.assert(
      fc.property(cents, (value) => {
        expect(toNumber(money(Number(centsText(value)), 'HKD'))).toBe(Number(centsText(value)));
      }),
    );
  });

  test('refuses to add two currencies', () => {
    expect(() => add(money(1, 'HKD'), money(1, 'USD'))).toThrow(TypeError);
    expect(() => compare(zero('HKD'), zero('CNY'))).toThrow(TypeError);
  });

  test('converts by the rate rule of docs/spec.md §9: HKD → X multiplies, X → HKD divides', () => {
    expect(toNumber(convert(money(1000, 'HKD'), 'USD', RATES))).toBe(128.5);
    expect(toNumber(convert(money('128.50', 'USD'), 'HKD', RATES))).toBe(1000);
    expect(toCents(convert(money(100, 'USD'), 'HKD', RATES))).toBe(778.21);
    expect(toCents(convert(money(100, 'USD'), 'CNY', RATES))).toBe(724.51);
    expect(convert(money(5, 'HKD'), 'HKD', new Map())).toEqual(money(5, 'HKD'));
    expect(() => convert(money(5, 'EUR'), 'HKD', RATES)).toThrow('no exchange rate for EUR');
    expect(() => convert(money(5, 'USD'), 'HKD', new Map([['USD', 0]]))).toThrow(RangeError);
  });

  test('a conversion there and back is within one rounding step, and the directed roundings bracket it', () => {
    fc.assert(
      fc.property(cents, rate, (value, r) => {
        const rates = new Map([['USD', r]]);
        const hkd = money(centsText(value), 'HKD');
        const usd = convert(hkd, 'USD', rates);
        // HKD → USD is exact for an 8-decimal rate times a 2-decimal amount at 10⁻⁸ … once rounded.
        const back = convert(usd, 'HKD', rates);
        const low = convert(usd, 'HKD', rates, 'floor');
        const high = convert(usd, 'HKD', rates, 'ceil');
        expect(compare(low, back) <= 0 && compare(back, high) <= 0).toBe(true);
        expect(high.units - low.units <= 1n).toBe(true);
        // Where nothing was rounded on the way, the way back is exact.
        if (usd.units * 10n ** 8n === hkd.units * BigInt(Math.round(r * 1e8))) expect(back).toEqual(hkd);
      }),
    );
  });

  test('rounds to cents half away from zero, as PostgreSQL does; floor and ceil for bounds', () => {
    expect(toCents(money('2.345', 'HKD'))).toBe(2.35);
    expect(toCents(money('-2.345', 'HKD'))).toBe(-2.35);
    expect(toCents(money('2.3449999', 'HKD'))).toBe(2.34);
    expect(toNumber(roundTo(money('2.349', 'HKD'), 2, 'floor'))).toBe(2.34);
    expect(toNumber(roundTo(money('-2.341', 'HKD'), 2, 'floor'))).toBe(-2.35);
    expect(toNumber(roundTo(money('2.341', 'HKD'), 2, 'ceil'))).toBe(2.35);
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), (units) => {
        const amount = { currency: 'HKD', units };
        const rounded = roundTo(amount, 2);
        const error = rounded.units - units;
        expect(rounded.units % 10n ** 6n).toBe(0n);
        expect(2n * (error < 0n ? -error : error) <= 10n ** 6n).toBe(true);
        expect(roundTo(amount, 2, 'floor').units <= units && units <= roundTo(amount, 2, 'ceil').units).toBe(true);
        expect(roundTo({ currency: 'HKD', units: -units }, 2).units).toBe(-rounded.units);
      }),
    );
  });

  test('the fast paths agree with the decimal text they skip', () => {
    // Whole numbers skip the text, toCents skips building a decimal string, rates are parsed once per table.
    fc.assert(
      fc.property(fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (whole) => {
        expect(money(whole, 'HKD')).toEqual(money(String(whole), 'HKD'));
        expect(times(money('1.5', 'HKD'), whole)).toEqual(times(money('1.5', 'HKD'), String(whole)));
      }),
    );
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), (units) => {
        const amount = { currency: 'HKD', units };
        expect(toCents(amount)).toBe(Number(toDecimalString(roundTo(amount, 2))));
      }),
    );
    const table = new Map<string, number | string>([['USD', 0.1285]]);
    const first = convert(money('100', 'USD'), 'HKD', table);
    expect(convert(money('100', 'USD'), 'HKD', table)).toEqual(first);
    expect(convert(money('100', 'USD'), 'HKD', new Map([['USD', 0.2]]))).not.toEqual(first);
  });
});
