/**
 * Money: an exact amount, a bigint count of 10⁻⁸ of the currency's unit, so sums and whole multiples never round; only a
 * conversion and the last step to the wire round, each by a named rule (ADR 0025).
 */

/** Decimal places Money keeps. */
export const MONEY_SCALE = 8;
const ONE = 10n ** BigInt(MONEY_SCALE);

export const HKD = 'HKD';

/** `halfAwayFromZero` (as PostgreSQL's `round(numeric)`) unless a bound needs `floor` or `ceil`. */
export type Rounding = 'halfAwayFromZero' | 'floor' | 'ceil';

export interface Money {
  /** ISO 4217 code: HKD, USD, CNY. */
  readonly currency: string;
  /** The amount in 10⁻⁸ of the currency's unit. */
  readonly units: bigint;
}

/** Units of each currency per 1 HKD, as the exchange_rate table keeps them (docs/spec.md §9); HKD needs no entry. */
export type ExchangeRates = ReadonlyMap<string, number | string>;

/** `n / d` as an integer, rounded by `rounding` (bigint division alone truncates toward zero). */
function divide(n: bigint, d: bigint, rounding: Rounding): bigint {
  const quotient = n / d;
  const remainder = n % d;
  if (remainder === 0n) return quotient;
  const negative = n < 0n !== d < 0n;
  if (rounding === 'floor') return negative ? quotient - 1n : quotient;
  if (rounding === 'ceil') return negative ? quotient : quotient + 1n;
  const twice = 2n * (remainder < 0n ? -remainder : remainder);
  return twice >= (d < 0n ? -d : d) ? quotient + (negative ? -1n : 1n) : quotient;
}

const DECIMAL = /^([+-])?(\d+)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;

/** 10ⁿ for the powers Money meets, computed once. */
const POWERS_OF_TEN = Array.from({ length: 64 }, (_, n) => 10n ** BigInt(n));
const pow10 = (n: number): bigint => POWERS_OF_TEN[n] ?? 10n ** BigInt(n);

/** A decimal (string, or a number by its shortest round-trip text) as `[digits, power of ten]`. */
function parseDecimal(value: string | number): [bigint, number] {
  if (typeof value === 'number' && !Number.isFinite(value)) throw new RangeError(`not a finite amount: ${value}`);
  // Whole numbers (share quantities, most of what is multiplied) need no text.
  if (typeof value === 'number' && Number.isSafeInteger(value)) return [BigInt(value), 0];
  const text = String(value).trim();
  const match = DECIMAL.exec(text);
  if (!match) throw new RangeError(`not a decimal amount: ${JSON.stringify(text)}`);
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  const digits = BigInt(`${whole}${fraction}`);
  return [sign === '-' ? -digits : digits, Number(exponent) - fraction.length];
}

/** `digits × 10^power` in units of 10^-scale, rounded half away from zero beyond that scale. */
function toScale(digits: bigint, power: number, scale: number): bigint {
  const shift = power + scale;
  return shift >= 0 ? digits * pow10(shift) : divide(digits, pow10(-shift), 'halfAwayFromZero');
}

/** Money from a decimal string, or a number by its shortest decimal text (`1234.56` is exactly that); finer than 10⁻⁸ rounds. */
export function money(amount: string | number, currency: string): Money {
  const [digits, power] = parseDecimal(amount);
  return { currency, units: toScale(digits, power, MONEY_SCALE) };
}

export const zero = (currency: string): Money => ({ currency, units: 0n });

function sameCurrency(a: Money, b: Money): string {
  if (a.currency !== b.currency) throw new TypeError(`cannot combine ${a.currency} with ${b.currency}: convert first`);
  return a.currency;
}

export const add = (a: Money, b: Money): Money => ({ currency: sameCurrency(a, b), units: a.units + b.units });

export const subtract = (a: Money, b: Money): Money => ({ currency: sameCurrency(a, b), units: a.units - b.units });

/** The sum of amounts in one currency; zero of `currency` for none. */
export const sum = (amounts: Iterable<Money>, currency: string): Money => {
  let total = zero(currency);
  for (const amount of amounts) total = add(total, amount);
  return total;
};

/** A total shown beside its parts: each part rounded to cents first, so the parts shown add up to the total shown. */
export const sumAsShown = (parts: Iterable<Money>, currency: string): Money => {
  let total = zero(currency);
  for (const part of parts) total = add(total, roundTo(part, 2));
  return total;
};

/** An amount times a decimal factor (a quantity of shares, say): exact for whole factors, else rounded by `rounding`. */
export function times(amount: Money, factor: number | string, rounding: Rounding = 'halfAwayFromZero'): Money {
  const [digits, power] = parseDecimal(factor);
  const product = amount.units * digits;
  return {
    currency: amount.currency,
    units: power >= 0 ? product * pow10(power) : divide(product, pow10(-power), rounding),
  };
}

/** -1, 0 or 1, for sorting; amounts must share a currency. */
export function compare(a: Money, b: Money): number {
  sameCurrency(a, b);
  return a.units < b.units ? -1 : a.units > b.units ? 1 : 0;
}

/** The rate of a currency per 1 HKD as `[digits, power of ten]`; a missing or non-positive rate is a data error, never guessed. */
function rateOf(currency: string, rates: ExchangeRates): [bigint, number] {
  let parsedRates = parsedRatesOf.get(rates);
  if (!parsedRates) parsedRatesOf.set(rates, (parsedRates = new Map()));
  const known = parsedRates.get(currency);
  if (known) return known;
  const rate = rates.get(currency);
  if (rate === undefined) throw new RangeError(`no exchange rate for ${currency}`);
  const parsed = parseDecimal(rate);
  if (parsed[0] <= 0n) throw new RangeError(`exchange rate for ${currency} must be positive (got ${rate})`);
  parsedRates.set(currency, parsed);
  return parsed;
}
/** Each rate table's rates, parsed once per table object (callers build one per request). */
const parsedRatesOf = new WeakMap<ExchangeRates, Map<string, [bigint, number]>>();

/** The amount in `currency` by docs/spec.md §9: from HKD multiply by the rate, to HKD divide, others through HKD. */
export function convert(amount: Money, currency: string, rates: ExchangeRates, rounding: Rounding = 'halfAwayFromZero'): Money {
  if (amount.currency === currency) return amount;
  let units = amount.units;
  if (amount.currency !== HKD) {
    const [digits, power] = rateOf(amount.currency, rates);
    // units / (digits × 10^power)
    units = power >= 0 ? divide(units, digits * pow10(power), rounding) : divide(units * pow10(-power), digits, rounding);
  }
  if (currency !== HKD) {
    const [digits, power] = rateOf(currency, rates);
    units = power >= 0 ? units * digits * pow10(power) : divide(units * digits, pow10(-power), rounding);
  }
  return { currency, units };
}

/** The amount rounded to `decimals` places (2 for the wire) by `rounding`. */
export function roundTo(amount: Money, decimals: number, rounding: Rounding = 'halfAwayFromZero'): Money {
  if (decimals >= MONEY_SCALE) return amount;
  const step = pow10(MONEY_SCALE - decimals);
  return { currency: amount.currency, units: divide(amount.units, step, rounding) * step };
}

/** Exact decimal text, without trailing zeros: `1234.5`, `-0.01`, `0`. */
export function toDecimalString(amount: Money): string {
  const negative = amount.units < 0n;
  const magnitude = negative ? -amount.units : amount.units;
  const whole = magnitude / ONE;
  const fraction = (magnitude % ONE).toString().padStart(MONEY_SCALE, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** The nearest JavaScript number, for the wire and for display. */
export const toNumber = (amount: Money): number => Number(toDecimalString(amount));

/** Rounded to cents (half away from zero) as a number: how every amount crosses the wire. */
export function toCents(amount: Money): number {
  const cents = divide(amount.units, CENT, 'halfAwayFromZero');
  // Exact doubles divided: the same number as parsing the decimal text (beyond 2⁵³ cents, through the text).
  return cents >= -MAX_EXACT_CENTS && cents <= MAX_EXACT_CENTS ? Number(cents) / 100 : toNumber(roundTo(amount, 2));
}
const CENT = pow10(MONEY_SCALE - 2);
const MAX_EXACT_CENTS = BigInt(Number.MAX_SAFE_INTEGER);
