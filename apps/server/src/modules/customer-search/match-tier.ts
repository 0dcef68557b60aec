import { sql, type SQL } from 'drizzle-orm';
import { likeEscaped } from '../../db/sql-rows';
import { ACCOUNT_NOS, CUSTOMER_NO, FOLDED, ID_DOC_LAST4, lowerAsSql, NAME_CN, PHONE_DIGITS, utf8, type BookTexts } from './book-texts';
import { customerNoMatches, type CustomerKeyword } from './customer-keyword';
import { a, accountA, c } from './customer-tables';

/** A whole phone without its country code: Hong Kong and Macau numbers have 8 digits, mainland mobiles 11. */
const NATIONAL_NUMBER_DIGITS = 8;
const COUNTRY_CODE_DIGITS = 3;

/** All the stored digits, or, for 8 typed digits or more, the stored digits less a 1–3-digit country code. */
export function isWholePhone(phoneDigits: string | null, typed: string): boolean {
  if (phoneDigits === null) return false;
  if (phoneDigits === typed) return true;
  const countryCode = phoneDigits.length - typed.length;
  return typed.length >= NATIONAL_NUMBER_DIGITS && countryCode >= 1 && countryCode <= COUNTRY_CODE_DIGITS && phoneDigits.endsWith(typed);
}

/** How well a found client answers the keyword (ADR 0046 §5): 0 exactly, 1 a name's start, 2 the rest; over a book's texts, romanised matches carry `romanisedMark` in `wordStamp`. */
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

  isExact(slot: number): boolean {
    const { keyword, texts } = this;
    if (keyword.customerNo && customerNoMatches(keyword.customerNo, texts.text(slot, CUSTOMER_NO)!)) return true;
    if (keyword.accountNo !== null && texts.list(slot, ACCOUNT_NOS).includes(keyword.accountNo)) return true;
    if (keyword.idDocTail !== null && texts.text(slot, ID_DOC_LAST4) === keyword.idDocTail) return true;
    return this.isWholePhone(slot);
  }

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

/** The same tiers in SQL over `c`; undefined when no arm ranks (every match is then of the last tier). */
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
