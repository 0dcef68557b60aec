import { describe, expect, it } from 'vitest';
import { hkSpellings } from './hk-romanisation';
import { customerNoKey, customerNoKeyword, foldChinese, foldedChineseKeyword, romanisedKeyword, searchTerms } from './search-terms';

/** The words of a name's terms (after its folded name). */
const wordsOf = (nameCn: string) => searchTerms(nameCn).split(' ').slice(1);

describe('hkSpellings (Jyutping → Hong Kong romanisation)', () => {
  it.each([
    ['wong4', 'wong'],
    ['can4', 'chan'],
    ['zoeng1', 'cheung'],
    ['zi3', 'chi'],
    ['ming4', 'ming'],
    ['lei5', 'lei'],
    ['lau4', 'lau'],
    ['ng4', 'ng'],
    ['gwok3', 'kwok'],
    ['ceoi4', 'chui'],
    ['si1', 'sze'],
    ['jyun4', 'yuen'],
    ['syun1', 'suen'],
    ['zyu1', 'chu'],
    ['loeng4', 'leung'],
    ['gou1', 'ko'],
    ['daai6', 'tai'],
    ['baau1', 'pau'],
    ['jip6', 'yip'],
    ['mun5', 'moon'],
  ])('%s is written %s first', (jyutping, usual) => {
    expect(hkSpellings(jyutping)[0]).toBe(usual);
  });

  it('lists the other spellings in use, so either is found', () => {
    expect(hkSpellings('zang1')).toContain('tsang');
    expect(hkSpellings('lei5')).toContain('lee');
    expect(hkSpellings('waa4')).toEqual(expect.arrayContaining(['wa', 'wah']));
    expect(hkSpellings('zi2')).toContain('tsz');
    expect(hkSpellings('ji4')).toEqual(['yee', 'yi']);
    expect(hkSpellings('zau1')).toContain('chow');
    expect(hkSpellings('sing4')).toContain('shing');
  });

  it('gives nothing for what is not a Jyutping syllable', () => {
    expect(hkSpellings('xyz1')).toEqual([]);
    expect(hkSpellings('')).toEqual([]);
  });
});

describe('foldChinese', () => {
  it('folds Traditional (Hong Kong and Taiwan forms) to Simplified and leaves the rest', () => {
    expect(foldChinese('黃志明')).toBe('黄志明');
    expect(foldChinese('張偉 Wong')).toBe('张伟 Wong');
    expect(foldChinese('衞')).toBe('卫');
    expect(foldChinese('著')).toBe('着');
    expect(foldChinese('黄志明')).toBe('黄志明');
  });

  it('folds a keyword of Chinese characters only', () => {
    expect(foldedChineseKeyword('黃 志明')).toBe('黄志明');
    expect(foldedChineseKeyword('陈A')).toBeNull();
    expect(foldedChineseKeyword('wong')).toBeNull();
  });
});

describe('searchTerms', () => {
  it('starts with the folded name, then its words', () => {
    expect(searchTerms('黃志明').startsWith('黄志明 ')).toBe(true);
    expect(searchTerms('黄志明')).toBe(searchTerms('黃志明'));
  });

  it('holds the Cantonese as Hong Kong writes it and the pinyin, each syllable and the given name joined', () => {
    expect(wordsOf('黃志明')).toEqual(expect.arrayContaining(['wong', 'chi', 'ming', 'chiming', 'huang', 'zhi', 'zhiming']));
    expect(wordsOf('陳大文')).toEqual(expect.arrayContaining(['chan', 'tai', 'man', 'taiman', 'chen', 'da', 'wen', 'dawen']));
    expect(wordsOf('張學友')).toEqual(expect.arrayContaining(['cheung', 'zhang', 'hok', 'xue', 'yau', 'you']));
  });

  it('holds the initials in both orders', () => {
    expect(wordsOf('陈伟文')).toEqual(expect.arrayContaining(['cwm', 'wmc', 'cww', 'wwc']));
    expect(wordsOf('黃志明')).toEqual(expect.arrayContaining(['wcm', 'cmw', 'hzm']));
  });

  it('reads a surname as a surname, not as the everyday character', () => {
    expect(wordsOf('曾志偉')).toEqual(expect.arrayContaining(['tsang', 'zeng']));
    expect(wordsOf('曾志偉')).not.toContain('ceng');
    expect(wordsOf('區家樂')).toEqual(expect.arrayContaining(['au', 'ou']));
    expect(wordsOf('單立文')).toEqual(expect.arrayContaining(['sin', 'shan']));
    expect(wordsOf('歐陽志明')).toEqual(expect.arrayContaining(['auyeung', 'ouyang', 'chiming']));
  });

  it('spells ü as the passports and forms do (LV, LU, LYU) and lowercases everything', () => {
    expect(wordsOf('吕小燕')).toEqual(expect.arrayContaining(['lv', 'lu', 'lyu', 'lui']));
    for (const word of wordsOf('吕小燕')) expect(word).toMatch(/^[a-z]+$/);
  });

  it('gives a name without Chinese characters nothing to match', () => {
    expect(searchTerms('')).toBe(' ');
    expect(searchTerms('Mary')).toBe(' ');
    expect(searchTerms('陈A')).toBe(`陈 ${wordsOf('陈').join(' ')}`);
  });
});

describe('romanisedKeyword', () => {
  it('splits letters into lower-case words', () => {
    expect(romanisedKeyword('Wong Chi-ming')).toEqual(['wong', 'chi', 'ming']);
    expect(romanisedKeyword("O'Neil")).toEqual(['o', 'neil']);
    expect(romanisedKeyword('cww')).toEqual(['cww']);
  });

  it('is not one for digits, Chinese or too many words', () => {
    expect(romanisedKeyword('wong1')).toBeNull();
    expect(romanisedKeyword('黃 wong')).toBeNull();
    expect(romanisedKeyword('a b c d e')).toBeNull();
  });
});

describe('customer numbers', () => {
  it('keys a number by its trailing digits without leading zeros', () => {
    expect(customerNoKey('C00001234')).toBe('1234');
    expect(customerNoKey('00001234')).toBe('1234');
    expect(customerNoKey('C0000')).toBeNull();
    expect(customerNoKey('ABC')).toBeNull();
  });

  it('reads the forms a manager types: full, any case, with or without zeros or letters', () => {
    expect(customerNoKeyword('C00001234')).toEqual({ prefix: 'C', key: '1234' });
    expect(customerNoKeyword('c00001234')).toEqual({ prefix: 'C', key: '1234' });
    expect(customerNoKeyword('c1234')).toEqual({ prefix: 'C', key: '1234' });
    expect(customerNoKeyword('00001234')).toEqual({ prefix: '', key: '1234' });
    expect(customerNoKeyword('1234')).toEqual({ prefix: '', key: '1234' });
    expect(customerNoKeyword('C-1234')).toEqual({ prefix: 'C', key: '1234' });
    expect(customerNoKeyword('0000')).toBeNull();
    expect(customerNoKeyword('wong')).toBeNull();
  });
});
