import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { normalisePhone } from './phone-number';

/** What the client edit form and the importer's files accept: digits, spaces and dashes, a `+` in front or not. */
const enteredPhone = fc
  .tuple(fc.boolean(), fc.string({ unit: fc.constantFrom(...'0123456789 -'), minLength: 1, maxLength: 24 }))
  .map(([plus, rest]) => (plus ? `+${rest}` : rest));

/** `digits` with a space or a dash (or nothing) between any two of them. */
const spelledOut = (digits: string) =>
  fc
    .array(fc.constantFrom('', ' ', '-'), { minLength: digits.length, maxLength: digits.length })
    .map((gaps) => [...digits].map((digit, i) => (i === 0 ? digit : `${gaps[i]}${digit}`)).join(''));

describe('normalisePhone', () => {
  test('regroups Hong Kong and mainland numbers, keeps others, and keeps the digits for search', () => {
    expect(normalisePhone('+852-9123-4567')).toEqual({ phone: '+852 9123 4567', digits: '85291234567' });
    expect(normalisePhone('+85291234567')).toEqual({ phone: '+852 9123 4567', digits: '85291234567' });
    expect(normalisePhone('9123 4567')).toEqual({ phone: '+852 9123 4567', digits: '85291234567' });
    expect(normalisePhone('+86 13912345678')).toEqual({ phone: '+86 139 1234 5678', digits: '8613912345678' });
    expect(normalisePhone('+853 6612  3456')).toEqual({ phone: '+853 6612 3456', digits: '85366123456' });
    // A `+` says the country code is there: eight digits after it are not taken for Hong Kong's.
    expect(normalisePhone('+1 555 0100')).toEqual({ phone: '+1 555 0100', digits: '15550100' });
  });

  test('a Hong Kong number reads the same however it was written', () => {
    const hongKong = fc
      .string({ unit: fc.constantFrom(...'0123456789'), minLength: 8, maxLength: 8 })
      .chain((number) => fc.tuple(fc.constant(number), spelledOut(number)));
    fc.assert(
      fc.property(hongKong, fc.constantFrom('', '852', '852 ', '+852', '+852 ', '+852-', '+ 852 '), ([number, written], prefix) => {
        expect(normalisePhone(`${prefix}${written}`)).toEqual({
          phone: `+852 ${number.slice(0, 4)} ${number.slice(4)}`,
          digits: `852${number}`,
        });
      }),
    );
  });

  test('shows a + and no dash or double space, its digits are the search digits, and it is stable', () => {
    fc.assert(
      fc.property(enteredPhone, (entered) => {
        const normalised = normalisePhone(entered);
        expect(normalised.phone).toMatch(/^\+(?:\S+(?: \S+)*)?$/);
        expect(normalised.phone).not.toContain('-');
        expect(normalised.phone.replace(/\D/g, '')).toBe(normalised.digits);
        expect(normalisePhone(normalised.phone)).toEqual(normalised);
      }),
    );
  });
});
