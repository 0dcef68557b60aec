import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { idNumberLast4, maskIdNumber, maskPhone, normaliseIdNumber } from './masking';

const digitsOf = (text: string) => [...text].filter((char) => char >= '0' && char <= '9');

describe('maskPhone', () => {
  test('stars the last four digits and keeps the layout', () => {
    expect(maskPhone('+852 9123 4567')).toBe('+852 9123 ****');
    expect(maskPhone('+86 139 1234 5678')).toBe('+86 139 1234 ****');
    expect(maskPhone('+853 66-12')).toBe('+853 **-**');
    expect(maskPhone(null)).toBeNull();
    expect(maskPhone('')).toBeNull();
  });

  test('never shows the last four digits, changes nothing else, keeps the length', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789 +-()x'), minLength: 1, maxLength: 24 }), (phone) => {
        const masked = maskPhone(phone)!;
        expect(masked).toHaveLength(phone.length);
        const hiddenCount = Math.min(4, digitsOf(phone).length);
        expect(digitsOf(masked)).toEqual(digitsOf(phone).slice(0, digitsOf(phone).length - hiddenCount));
        expect([...masked].filter((char) => char === '*').length - [...phone].filter((char) => char === '*').length).toBe(hiddenCount);
        [...phone].forEach((char, i) => expect(masked[i] === char || masked[i] === '*').toBe(true));
      }),
    );
  });
});

describe('maskIdNumber', () => {
  test('shows the first two and last four characters of a real document number, and at most half of a short one', () => {
    const masks: [number: string, masked: string][] = [
      ['A123456(3)', 'A1**4563'],
      ['AB987654(3)', 'AB***6543'],
      ['440301198806150024', '44************0024'],
      // Six characters or fewer: never shown whole (k1234 was once shown as K1234; ADRs 0022–0030).
      ['k1234', 'K***4'],
      ['AB1234', 'A***34'],
      ['X1', 'X*'],
      ['7', '*'],
      ['', ''],
    ];
    for (const [number, masked] of masks) expect(maskIdNumber(number), number).toBe(masked);
    expect(idNumberLast4('A123456(3)')).toBe('4563');
    expect(idNumberLast4('440301198806150024')).toBe('0024');
  });

  test('keeps the length and shows only characters of its two ends: six of a long number, at most half of a short one', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789ABCXYZabc()- '), maxLength: 30 }), (number) => {
        const clean = normaliseIdNumber(number);
        const masked = maskIdNumber(number);
        expect(masked).toHaveLength(clean.length);
        const shown = [...masked].filter((char) => char !== '*').length;
        if (clean.length > 6) expect(shown).toBe(6);
        else expect(shown).toBeLessThanOrEqual(Math.floor(clean.length / 2));
        const head = masked.length - masked.replace(/^[^*]+/, '').length;
        const tail = masked.length - masked.replace(/[^*]+$/, '').length;
        if (shown < clean.length) {
          expect(masked.slice(0, head)).toBe(clean.slice(0, head));
          expect(masked.slice(head, clean.length - tail)).toBe('*'.repeat(clean.length - shown));
          expect(masked.slice(clean.length - tail)).toBe(clean.slice(clean.length - tail));
        }
        expect(idNumberLast4(number)).toBe(clean.slice(-4));
      }),
    );
  });
});
