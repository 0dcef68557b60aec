import { sql, type SQL } from 'drizzle-orm';
import { likeEscaped } from '../../db/sql-rows';
import { ACCOUNT_NOS, CUSTOMER_NO, FOLDED, ID_DOC_LAST4, lowerAsSql, NAME_CN, PHONE_DIGITS, utf8, type BookTexts } from './book-texts';
import { customerNoMatches, type CustomerKeyword } from './customer-keyword';
import { a, accountA, c } from './customer-tables';

/**
 * How well a found client answers the keyword (issue 22, ADR 0046 §5); a keyword's list is ordered by
 * this first, then by the chosen sort and id:
 * - 0, exactly the client asked for: the customer number, an account number, the identity document's
 *   last four, or the whole phone number (see `isWholePhone`);
 * - 1, a name that begins with the keyword: the Chinese name or its folded form, a word of the English
 *   name, or a romanised match (each of its words begins a word of the terms, so it is a prefix);
 * - 2, the rest (a piece of a name or of a phone number).
 * Only found rows are ranked: every tier's test implies one of the keyword's arms.
 */
export type MatchTier = 0 | 1 | 2;

/**
 * The shortest number a manager types as a whole phone without its country code: Hong Kong and Macau
 * numbers have 8 digits, mainland mobiles 11. Shorter runs (`1234`) are pieces, not a phone.
 */
const NATIONAL_NUMBER_DIGITS = 8;
/** Country codes are one to three digits (852, 853, 86, 1). */
const COUNTRY_CODE_DIGITS = 3;

/**
 * Whether the typed digits are the client's whole phone: all its digits (country code included, as
 * stored: `85291234567`), or its national number, the stored digits less a country code of one to
 * three digits (`91234567`), when the typed digits are long enough to be a whole number (8 or more).
 */
export function isWholePhone(phoneDigits: string | null, typed: string): boolean {
  if (phoneDigits === null) return false;
  if (phoneDigits === typed) return true;
  const countryCode = phoneDigits.length - typed.length;
  return typed.length >= NATIONAL_NUMBER_DIGITS && countryCode >= 1 && countryCode <= COUNTRY_CODE_DIGITS && phoneDigits.endsWith(typed);
}

/**
 * The keyword's tier tests over a book index's packed texts, decided once per query (the index asks them of
 * each match's slot). `romanisedMark`: the romanised arm's matches carry it in `wordStamp` (each typed word
 * begins a word of their terms, so they begin a name by construction).
 */
export class MatchTiers {
  private readonly text: Uint8Array;
  private readonly folded: Uint8Array | null;
  private readonly englishText: string | null;
  private readonly english: Uint8Array | null;

  constructor(
    private readonly keyword: CustomerKeyword,
    private readonly texts: BookTexts,
    private readonly wordStamp: Uint32Array,
    private readonly romanisedMark: number,
  ) {
    this.text = utf8(keyword.text);
    this.folded = keyword.chineseName?.folded ? utf8(keyword.chineseName.folded) : null;
    this.englishText = keyword.englishName ? lowerAsSql(keyword.text) : null;
    this.english = this.englishText === null ? null : utf8(this.englishText);
  }

  isWholePhone(slot: number): boolean {
    return this.keyword.phone !== null && isWholePhone(this.texts.text(slot, PHONE_DIGITS), this.keyword.phone.digits);
  }

  /** Tier 0: equality tests only (the customer number's key, an account, the ID tail, the whole phone). */
  isExact(slot: number): boolean {
    const { keyword, texts } = this;
    if (keyword.customerNo && customerNoMatches(keyword.customerNo, texts.text(slot, CUSTOMER_NO)!)) return true;
    if (keyword.accountNo !== null && texts.list(slot, ACCOUNT_NOS).includes(keyword.accountNo)) return true;
    if (keyword.idDocTail !== null && texts.text(slot, ID_DOC_LAST4) === keyword.idDocTail) return true;
    return this.isWholePhone(slot);
  }

  /** Tier 1, for a row that is not exact: a name begins with the keyword. */
  isNamePrefix(slot: number): boolean {
    const { texts } = this;
    if (this.keyword.chineseName) {
      if (texts.startsWith(slot, NAME_CN, this.text)) return true;
      if (this.folded !== null && texts.startsWith(slot, FOLDED, this.folded)) return true;
    }
    if (this.english !== null && texts.nameEnHolds(slot, this.english, this.englishText!, true)) return true;
    return this.romanisedMark !== 0 && this.wordStamp[slot] === this.romanisedMark;
  }
}

/**
 * The same tiers in SQL, over the customer `c`, for the ORDER BY of a keyword's page (both search paths
 * must give the same pages: the equivalence test compares them). Only where the keyword has the arm; undefined
 * when it has none that ranks (every match is then of the last tier).
 */
export function matchTierSql(keyword: CustomerKeyword, corpId: number): SQL | undefined {
  const exact: SQL[] = [];
  if (keyword.customerNo) {
    const { key, prefix } = keyword.customerNo;
    exact.push(
      prefix
        ? sql`(nullif(ltrim(substring(${c.customerNo} from '[0-9]+$'), '0'), '') = ${key} and translate(left(${c.customerNo}, ${prefix.length}::int), 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') = ${prefix})`
        : sql`nullif(ltrim(substring(${c.customerNo} from '[0-9]+$'), '0'), '') = ${key}`,
    );
  }
  if (keyword.accountNo !== null)
    exact.push(
      sql`${c.id} = (select ${a.customerId} from ${accountA} where ${a.corpId} = ${corpId} and ${a.accountNo} = ${keyword.accountNo})`,
    );
  if (keyword.idDocTail !== null) exact.push(sql`${c.idDocLast4} = ${keyword.idDocTail}`);
  if (keyword.phone) {
    const { digits } = keyword.phone;
    exact.push(
      digits.length >= NATIONAL_NUMBER_DIGITS
        ? sql`(${c.phoneDigits} = ${digits} or (right(${c.phoneDigits}, ${digits.length}::int) = ${digits} and length(${c.phoneDigits}) between ${digits.length + 1}::int and ${digits.length + COUNTRY_CODE_DIGITS}::int))`
        : sql`${c.phoneDigits} = ${digits}`,
    );
  }
  const prefix: SQL[] = [];
  if (keyword.chineseName) {
    prefix.push(sql`${c.nameCn} like ${`${likeEscaped(keyword.text)}%`}`);
    const { folded } = keyword.chineseName;
    if (folded !== null) prefix.push(sql`split_part(${c.searchTerms}, ' ', 1) like ${`${likeEscaped(folded)}%`}`);
  }
  if (keyword.englishName) {
    const escaped = likeEscaped(keyword.text);
    prefix.push(sql`(${c.nameEn} ilike ${`${escaped}%`} or ${c.nameEn} ilike ${`% ${escaped}%`})`);
  }
  if (keyword.romanised) {
    prefix.push(
      sql`(${sql.join(
        keyword.romanised.words.map((word) => sql`${c.searchTerms} like ${`% ${word}%`}`),
        sql` and `,
      )})`,
    );
  }
  const anyOf = (parts: SQL[]) => sql`(${sql.join(parts, sql` or `)})`;
  const cases = [
    ...(exact.length ? [sql`when ${anyOf(exact)} then 0`] : []),
    ...(prefix.length ? [sql`when ${anyOf(prefix)} then 1`] : []),
  ];
  return cases.length ? sql`(case ${sql.join(cases, sql` `)} else 2 end)` : undefined;
}
