import { describe, expect, it } from 'vitest';
import { formatLsn, parseLsn } from './lsn';

describe('parseLsn (the read-your-writes cookie is untrusted)', () => {
  it('reads PostgreSQL pg_lsn text, either case, and compares positions as numbers', () => {
    expect(parseLsn('0/0')).toBe(0n);
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
    expect(parseLsn('16/b374d848')).toBe(parseLsn('16/B374D848'));
    expect(parseLsn('FFFFFFFF/FFFFFFFF')).toBe(2n ** 64n - 1n);
    // 1/0 is past 0/FFFFFFFF: string order would say otherwise.
    expect(parseLsn('1/0')! > parseLsn('0/FFFFFFFF')!).toBe(true);
  });

  it.each([
    ['', 'empty'],
    ['16', 'no slash'],
    ['16/', 'no low half'],
    ['/16', 'no high half'],
    ['1/2/3', 'three parts'],
    ['123456789/0', 'a half of nine digits'],
    ['0/0 ', 'a trailing space'],
    [' 0/0', 'a leading space'],
    ['0x1/0', 'a 0x prefix'],
    ['-1/0', 'a sign'],
    ['G/0', 'not hex'],
    ['0/0; Path=/', 'anything after it'],
    ['0'.repeat(5000) + '/0', 'a very long value'],
  ])('refuses %j (%s)', (text) => {
    expect(parseLsn(text)).toBeUndefined();
  });

  it('refuses what is not a string', () => {
    expect(parseLsn(undefined)).toBeUndefined();
    expect(parseLsn(12)).toBeUndefined();
    expect(parseLsn(['0/0'])).toBeUndefined();
  });

  it('writes positions back as PostgreSQL does', () => {
    for (const text of ['0/0', '16/B374D848', 'FFFFFFFF/FFFFFFFF', '1/A']) expect(formatLsn(parseLsn(text)!)).toBe(text);
  });
});
