import { describe, expect, it } from 'vitest';
import { hkidCheckDigit, mainlandId } from './identity-documents';
import { Prng } from './prng';

describe('identity documents', () => {
  it('computes the HKID check digit', () => {
    expect(hkidCheckDigit('A', '123456')).toBe('3');
  });

  it('makes mainland ids that embed the birthday and pass the mod-11 check', () => {
    const id = mainlandId(new Prng(1), '1988-06-15', true).number;
    expect(id.slice(6, 14)).toBe('19880615');
    const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
    const sum = id
      .slice(0, 17)
      .split('')
      .reduce((total, digit, i) => total + Number(digit) * weights[i]!, 0);
    expect(id[17]).toBe('10X98765432'[sum % 11]);
    expect(Number(id[16]) % 2).toBe(1);
  });
});
