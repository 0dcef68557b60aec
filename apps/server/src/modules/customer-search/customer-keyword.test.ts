import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { interpretKeyword, matchedOn, type CustomerKeyword } from './customer-keyword';

/** The arms a keyword is tested by, without the planner's flags. */
const arms = (keyword: CustomerKeyword | undefined) =>
  keyword && {
    chineseName: keyword.chineseName,
    englishName: keyword.englishName,
    phone: keyword.phone,
    accountNo: keyword.accountNo,
    idDocTail: keyword.idDocTail,
  };

describe('interpretKeyword', () => {
  it('means nothing when empty', () => {
    expect(interpretKeyword(undefined)).toBeUndefined();
    expect(interpretKeyword('')).toBeUndefined();
  });

  it('reads a Chinese name, by its character pairs from two characters on', () => {
    expect(arms(interpretKeyword('陈'))).toEqual({
      chineseName: { byBigrams: false, folded: '陈' },
      englishName: null,
      phone: null,
      accountNo: null,
      idDocTail: null,
    });
    expect(interpretKeyword('嘉欣')).toMatchObject({ chineseName: { byBigrams: true }, narrowsByIndex: true, foundThroughOwnArms: true });
    expect(interpretKeyword('陈')).toMatchObject({ narrowsByIndex: false, foundThroughOwnArms: false });
    // With a Latin letter the English name is searched too, and needs a whole trigram to narrow.
    expect(interpretKeyword('陈a')).toMatchObject({
      chineseName: { byBigrams: true },
      englishName: { byWordTrigrams: false },
      narrowsByIndex: false,
    });
  });

  it('reads an English name, by the book’s word trigrams when a word has three letters or digits', () => {
    expect(interpretKeyword('wong')).toMatchObject({
      englishName: { byWordTrigrams: true },
      accountNo: 'WONG',
      idDocTail: 'WONG',
      phone: null,
      narrowsByIndex: true,
      foundThroughOwnArms: true,
    });
    expect(interpretKeyword('Chan Tai')).toMatchObject({ englishName: { byWordTrigrams: true }, accountNo: null, idDocTail: null });
    // `ka wa` narrows through the staff-scoped pg_trgm index, not the book's own grams.
    expect(interpretKeyword('ka wa')).toMatchObject({
      englishName: { byWordTrigrams: false },
      narrowsByIndex: true,
      foundThroughOwnArms: false,
    });
    expect(interpretKeyword('wa')).toMatchObject({ narrowsByIndex: false });
  });

  it('reads Chinese characters folded to Simplified, Latin words as romanisation, letters and digits as a customer number (ADR 0046)', () => {
    expect(interpretKeyword('黃 志明')?.chineseName).toEqual({ byBigrams: true, folded: '黄志明' });
    expect(interpretKeyword('陈a')?.chineseName).toEqual({ byBigrams: true, folded: null });
    expect(interpretKeyword('Wong Chi-ming')?.romanised).toEqual({
      words: ['wong', 'chi', 'ming'],
      wordStarts: [' wong', ' chi', ' ming'],
      byWordTrigrams: true,
    });
    expect(interpretKeyword('ka wa')?.romanised).toEqual({ words: ['ka', 'wa'], wordStarts: [' ka', ' wa'], byWordTrigrams: false });
    expect(interpretKeyword('wong1')?.romanised).toBeNull();
    expect(interpretKeyword('c00001234')?.customerNo).toEqual({ prefix: 'C', key: '1234' });
    expect(interpretKeyword('1234')?.customerNo).toEqual({ prefix: '', key: '1234' });
    expect(interpretKeyword('wong')?.customerNo).toBeNull();
  });

  it('reads a number as phone digits, whatever spaces, plus signs, brackets and dashes it is typed with', () => {
    expect(interpretKeyword('+852 9123-4567')?.phone).toEqual({ digits: '85291234567', byTrigrams: true });
    expect(interpretKeyword('(852) 9123')?.phone).toEqual({ digits: '8529123', byTrigrams: true });
    expect(interpretKeyword('12')).toMatchObject({ phone: { digits: '12', byTrigrams: false }, narrowsByIndex: false });
    // Letters make it no phone number: `A123` is an account or an identity-document tail.
    expect(interpretKeyword('A123')).toMatchObject({ phone: null, accountNo: 'A123', idDocTail: 'A123' });
    expect(interpretKeyword('+-')?.phone).toBeNull();
  });

  it('reads 4–20 letters or digits as an account number and exactly 4 as an identity-document tail, upper-cased', () => {
    expect(interpretKeyword('c1234567')).toMatchObject({ accountNo: 'C1234567', idDocTail: null });
    expect(interpretKeyword('9123')).toMatchObject({ accountNo: '9123', idDocTail: '9123', phone: { digits: '9123', byTrigrams: true } });
    expect(interpretKeyword('A'.repeat(21))?.accountNo).toBeNull();
    expect(interpretKeyword('AB-12')).toMatchObject({ accountNo: null, idDocTail: null });
  });

  it('matches nothing that is neither a name, a number nor a code', () => {
    expect(arms(interpretKeyword('%'))).toEqual({ chineseName: null, englishName: null, phone: null, accountNo: null, idDocTail: null });
  });

  const typed = fc.string({
    unit: fc.constantFrom(...'陈嘉欣aBcXyz0123456789 +-()%_.'.split('')),
    minLength: 1,
    maxLength: 24,
  });

  it('keeps each arm to what its field can hold (property)', () => {
    fc.assert(
      fc.property(typed, (text) => {
        const keyword = interpretKeyword(text)!;
        if (keyword.phone) {
          expect(keyword.phone.digits).toMatch(/^\d+$/);
          expect(keyword.phone.digits).toBe(text.replace(/\D/g, ''));
          expect(text).not.toMatch(/[^\d\s+()-]/);
        } else expect(/^[\d\s+()-]+$/.test(text) && /\d/.test(text)).toBe(false);
        if (keyword.idDocTail) expect(keyword.accountNo).toBe(keyword.idDocTail);
        if (keyword.accountNo) expect(keyword.accountNo).toMatch(/^[A-Z0-9]{4,20}$/);
        expect(keyword.chineseName !== null).toBe(/[陈嘉欣]/.test(text));
        expect(keyword.englishName !== null).toBe(/[A-Za-z]/.test(text));
        // Found through the book's own grams or pinned rows only if narrowed by an index at all.
        if (keyword.foundThroughOwnArms) expect(keyword.narrowsByIndex).toBe(true);
        // An arm that is narrowed must be able to narrow: the SQL path trusts `narrowsByIndex`.
        if (keyword.narrowsByIndex && keyword.chineseName) expect(keyword.chineseName.byBigrams).toBe(true);
        if (keyword.narrowsByIndex && keyword.phone) expect(keyword.phone.byTrigrams).toBe(true);
      }),
    );
  });

  it('interprets a keyword the same whatever the case of its letters (property)', () => {
    fc.assert(
      fc.property(typed, (text) => {
        const lower = interpretKeyword(text.toLowerCase())!;
        const upper = interpretKeyword(text.toUpperCase())!;
        expect({ ...lower, text: '' }).toEqual({ ...upper, text: '' });
      }),
    );
  });
});

describe('matchedOn', () => {
  const row = { customerNo: 'C00000042', nameCn: '陈嘉欣', nameEn: 'Chan Ka Yan', phoneDigits: '85291234567', accountNos: ['C1234567'] };
  const on = (text: string) => matchedOn(interpretKeyword(text)!, row);

  it('names the first arm that holds the keyword: name, phone, account, else the identity document', () => {
    expect(on('嘉欣')).toBe('name');
    expect(on('ka YAN')).toBe('name');
    expect(on('9123 4567')).toBe('phone');
    expect(on('c1234567')).toBe('account');
    expect(on('c42')).toBe('customerNo');
    expect(on('00000042')).toBe('customerNo');
    expect(on('陳嘉欣')).toBe('name');
    expect(on('chan ka')).toBe('name');
    expect(on('chen jiaxin')).toBe('name');
    expect(on('A123')).toBe('idDoc');
  });

  it('finds a name however the keyword is cased (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: row.nameEn.length - 1 }),
        fc.integer({ min: 1, max: row.nameEn.length }),
        fc.boolean(),
        (from, length, upper) => {
          const part = row.nameEn.slice(from, from + length);
          fc.pre(part.trim().length > 0);
          expect(on(upper ? part.toUpperCase() : part.toLowerCase())).toBe('name');
        },
      ),
    );
  });
});
