import {
  customerNoKey,
  customerNoKeyword,
  foldedChineseKeyword,
  romanisedKeyword,
  searchTerms,
  upperAscii,
  type CustomerNoKeyword,
} from '../../db/search-terms';

/** What a search keyword can mean, decided once: every SQL arm, the book index and `matchedOn` read this (ADR 0026). */
export interface CustomerKeyword {
  /** As typed (the contract trims it). */
  readonly text: string;
  readonly chineseName: {
    /** Two characters or more: the book's character pairs can find it (migration 0015). */
    readonly byBigrams: boolean;
    /** Chinese characters only: folded to Simplified, so 黃 finds 黄 and 张伟 finds 張偉 (ADR 0046). */
    readonly folded: string | null;
  } | null;
  /** Latin letters only: each word must begin a word of the name's romanisations, in any order. */
  readonly romanised: {
    readonly words: readonly string[];
    /** The words each after a space, as a word of the terms begins. */
    readonly wordStarts: readonly string[];
    /** Three letters or more: the book's word trigrams of the terms can find it (migration 0029). */
    readonly byWordTrigrams: boolean;
  } | null;
  /** Letters then digits (`C00001234`, `c1234`, `1234`): the customer number with these digits. */
  readonly customerNo: CustomerNoKeyword | null;
  readonly englishName: {
    /** A run of three letters or digits: the book's word trigrams can find it (migration 0016). */
    readonly byWordTrigrams: boolean;
  } | null;
  /** Digits, spaces, `+`, brackets, dashes: any run of the phone's digits. */
  readonly phone: {
    readonly digits: string;
    /** Three digits or more: the book's digit trigrams can find it (migration 0015). */
    readonly byTrigrams: boolean;
  } | null;
  /** 4–20 letters or digits: an account number, exactly (upper-cased). */
  readonly accountNo: string | null;
  /** Exactly 4 letters or digits: the identity document's last four (upper-cased). */
  readonly idDocTail: string | null;
  /** Every arm can be narrowed by a staff-scoped GIN index, so a book's matches are few (`keywordUse`). */
  readonly narrowsByIndex: boolean;
  /** Every arm is found through the book's own grams or pins a row, so `staff_id` needs only checking. */
  readonly foundThroughOwnArms: boolean;
}

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
const LATIN = /[A-Za-z]/;
const NUMBER = /^[\d\s+()-]+$/;
const ACCOUNT_NO = /^[A-Za-z0-9]{4,20}$/;
const ID_DOC_TAIL = /^[A-Za-z0-9]{4}$/;

const hasWordTrigram = (text: string) =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .some((word) => word.length >= 3);

function narrowsByIndex(text: string, chinese: boolean, latin: boolean): boolean {
  const length = [...text].length;
  // A Chinese term with Latin letters also has an English-name arm, which needs a whole trigram.
  if (chinese) return length >= 2 && (!latin || length >= 3);
  return text.replace(/[\s+()-]/g, '').length >= 3;
}

export function interpretKeyword(text: string | undefined): CustomerKeyword | undefined {
  if (!text) return undefined;
  const chinese = CJK.test(text);
  const latin = LATIN.test(text);
  const digits = NUMBER.test(text) ? text.replace(/\D/g, '') : '';
  const narrows = narrowsByIndex(text, chinese, latin);
  const wordTrigram = latin && hasWordTrigram(text);
  const romanised = romanisedKeyword(text);
  return {
    text,
    chineseName: chinese ? { byBigrams: [...text].length >= 2, folded: foldedChineseKeyword(text) } : null,
    englishName: latin ? { byWordTrigrams: wordTrigram } : null,
    romanised: romanised
      ? { words: romanised, wordStarts: romanised.map((word) => ` ${word}`), byWordTrigrams: romanised.some((word) => word.length >= 3) }
      : null,
    customerNo: customerNoKeyword(text),
    phone: digits ? { digits, byTrigrams: digits.length >= 3 } : null,
    accountNo: ACCOUNT_NO.test(text) ? text.toUpperCase() : null,
    idDocTail: ID_DOC_TAIL.test(text) ? text.toUpperCase() : null,
    narrowsByIndex: narrows,
    // Without a word trigram the English-name arm needs customer_staff_name_en_trgm_idx, scoped by its staff_id column.
    foundThroughOwnArms: narrows && (!latin || wordTrigram),
  };
}

export interface KeywordTestedFields {
  customerNo: string;
  nameCn: string;
  nameEn: string;
  phoneDigits: string | null;
  accountNos: string[];
}

export type MatchedOn = 'customerNo' | 'name' | 'phone' | 'account' | 'idDoc';

/** Both search paths test exactly this. */
export function customerNoMatches(keyword: CustomerNoKeyword, customerNo: string): boolean {
  return customerNoKey(customerNo) === keyword.key && upperAscii(customerNo.slice(0, keyword.prefix.length)) === keyword.prefix;
}

/** Each word of a romanised keyword (`wordStarts`, each after a space) begins a word of `terms`. */
export function termsHoldWords(terms: string, wordStarts: readonly string[]): boolean {
  for (const start of wordStarts) if (!terms.includes(start)) return false;
  return true;
}

/** Which arm found a customer, for highlighting; the identity document last (a list does not carry it). */
export function matchedOn(keyword: CustomerKeyword, row: KeywordTestedFields): MatchedOn {
  if (keyword.customerNo && customerNoMatches(keyword.customerNo, row.customerNo)) return 'customerNo';
  const lower = keyword.text.toLowerCase();
  if (row.nameCn.toLowerCase().includes(lower) || row.nameEn.toLowerCase().includes(lower)) return 'name';
  if (keyword.chineseName?.folded || keyword.romanised) {
    // The terms as computed now: this only labels the few rows of a page.
    const terms = searchTerms(row.nameCn);
    if (keyword.chineseName?.folded && terms.split(' ', 1)[0]!.includes(keyword.chineseName.folded)) return 'name';
    if (keyword.romanised && termsHoldWords(terms, keyword.romanised.wordStarts)) return 'name';
  }
  if (keyword.phone && row.phoneDigits?.includes(keyword.phone.digits)) return 'phone';
  if (keyword.accountNo && row.accountNos.includes(keyword.accountNo)) return 'account';
  return 'idDoc';
}
