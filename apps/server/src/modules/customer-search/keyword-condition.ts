import { sql, type Column, type SQL } from 'drizzle-orm';
import { containsPattern } from '../../db/sql-rows';
import type { CustomerKeyword } from './customer-keyword';
import { a, accountA, c } from './customer-tables';

/**
 * How the keyword's tests are written. `index`: so that the keyword's GIN indexes can find its
 * matches. `filter`: so that they cannot, for a keyword too short for them (`narrowsByIndex` false): the
 * book is read from its staff-scoped indexes, each entry tested, where the planner could otherwise pick a
 * GIN that returns most of the book (its trigram estimates are wrong by a hundredfold both ways, ADR 0009).
 */
export type KeywordUse = 'index' | 'filter';

/** A column the GIN indexes cannot serve a test of: `|| ''` hides it from them and changes no value. */
const unindexed = (column: Column | SQL) => sql`(${column} || '')`;

/**
 * One way a keyword can match: `test` decides exactly; `found`, where an index can serve it, finds
 * the arm's candidates in the book (every row passing `test` in the book passes `found`).
 */
interface KeywordArm {
  found?: SQL;
  test: SQL;
}

/**
 * The keyword's tests, each only where the keyword could match: names by partial match (trigram,
 * or CJK bigram for Chinese), phone digits by partial match, account number and identity-document
 * tail exactly. Grams are qualified by the book (migration 0015), so the GIN returns this manager's
 * candidates alone; LIKE confirms them, hidden from the trigram indexes: a generic plan (the page
 * is prepared) cannot see that a two-character term holds no trigram, and once read every entry of
 * customer_name_cn_trgm for one.
 *
 * When every arm has an index, the condition is `(found₁ or found₂ …) and (test₁ or test₂ …)`:
 * the first group is exactly the BitmapOr's condition, so PostgreSQL does not evaluate it again on
 * each row, and the rows are confirmed by LIKE alone. Written `found and test` per arm, every row
 * re-ran the gram functions (SQL functions) in the filter, most of a phone page's time (ADR 0029).
 * Both forms select the same rows, since each `test` implies its `found`.
 */
export function keywordCondition(keyword: CustomerKeyword, scope: { corpId: number; staffId: number }, use: KeywordUse = 'index'): SQL {
  const { corpId, staffId } = scope;
  const arms: KeywordArm[] = [];
  const pattern = containsPattern(keyword.text);
  const column = (name: Column) => (use === 'index' ? sql`${name}` : unindexed(name));
  if (keyword.chineseName) {
    // pg_trgm cannot narrow a 2-character Chinese term; its character pairs can. One character is
    // tested by LIKE over the book's covering index: a common surname such as `陈` matches too large a
    // part of a book for an index to save the heap visits.
    arms.push(
      keyword.chineseName.byBigrams && use === 'index'
        ? {
            found: sql`staff_cjk_bigrams(${c.staffId}, ${c.nameCn}) @> staff_cjk_bigrams(${staffId}::int, ${keyword.text})`,
            test: sql`${unindexed(c.nameCn)} like ${pattern}`,
          }
        : { test: sql`${column(c.nameCn)} like ${pattern}` },
    );
    const { folded } = keyword.chineseName;
    if (folded) {
      // The name folded to Simplified (ADR 0046): its first word of search_terms, indexed by migration 0029.
      const foldedName = sql`split_part(${c.searchTerms}, ' ', 1)`;
      const foldedTest = sql`${unindexed(foldedName)} like ${containsPattern(folded)}`;
      arms.push(
        [...folded].length >= 2 && use === 'index'
          ? {
              found: sql`staff_cjk_bigrams(${c.staffId}, ${foldedName}) @> staff_cjk_bigrams(${staffId}::int, ${folded})`,
              test: foldedTest,
            }
          : { test: foldedTest },
      );
    }
  }
  if (keyword.englishName) {
    if (use === 'index' && keyword.englishName.byWordTrigrams) {
      arms.push({
        found: sql`staff_word_trigrams(${c.staffId}, ${c.nameEn}) @> staff_word_trigrams(${staffId}::int, ${keyword.text})`,
        test: sql`${unindexed(c.nameEn)} ilike ${pattern}`,
      });
    } else {
      // Served by customer_staff_name_en_trgm_idx (staff_id, pg_trgm) when indexed.
      const test = sql`${column(c.nameEn)} ilike ${pattern}`;
      arms.push(use === 'index' ? { found: test, test } : { test });
    }
  }
  if (keyword.romanised) {
    // Each word begins a word of the romanisations (`% wong%`); words are lower case, letters only.
    const { words, byWordTrigrams } = keyword.romanised;
    const test = sql`(${sql.join(
      words.map((word) => sql`${unindexed(c.searchTerms)} like ${`% ${word}%`}`),
      sql` and `,
    )})`;
    arms.push(
      use === 'index' && byWordTrigrams
        ? {
            found: sql`staff_word_trigrams(${c.staffId}, ${c.searchTerms}) @> staff_word_trigrams(${staffId}::int, ${words.join(' ')})`,
            test,
          }
        : { test },
    );
  }
  if (keyword.customerNo) {
    // The number's digits without leading zeros (customer_no_key_idx), and the letters typed before them, if any.
    const { key, prefix } = keyword.customerNo;
    const number = use === 'index' ? sql`${c.customerNo}` : unindexed(c.customerNo);
    const letters = prefix
      ? sql` and translate(left(${c.customerNo}, ${prefix.length}::int), 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') = ${prefix}`
      : sql``;
    const digits = sql`(${c.corpId} = ${corpId} and nullif(ltrim(substring(${number} from '[0-9]+$'), '0'), '') = ${key} and ${c.staffId} = ${staffId})`;
    // The index finds the digits; the letters only confirm, so that the found group stays exactly the BitmapOr's condition.
    const test = prefix ? sql`(${digits}${letters})` : digits;
    arms.push(use === 'index' ? { found: digits, test } : { test });
  }
  const { phone } = keyword;
  if (phone && phone.byTrigrams && use === 'index') {
    arms.push({
      found: sql`staff_digit_trigrams(${c.staffId}, ${c.phoneDigits}) @> staff_digit_trigrams(${staffId}::int, ${phone.digits})`,
      test: sql`${unindexed(c.phoneDigits)} like ${containsPattern(phone.digits)}`,
    });
  } else if (phone) arms.push({ test: sql`${column(c.phoneDigits)} like ${containsPattern(phone.digits)}` });
  if (keyword.accountNo) {
    // Account numbers are unique per corp: a scalar subquery runs once and its id can drive an index arm of the OR.
    const test = sql`${c.id} = (select ${a.customerId} from ${accountA} where ${a.corpId} = ${corpId} and ${a.accountNo} = ${keyword.accountNo})`;
    arms.push({ found: test, test });
  }
  if (keyword.idDocTail) {
    const test = sql`(${c.corpId} = ${corpId} and ${column(c.idDocLast4)} = ${keyword.idDocTail} and ${c.staffId} = ${staffId})`;
    arms.push(use === 'index' ? { found: test, test } : { test });
  }
  if (arms.length === 0) return sql`false`;
  const anyOf = (parts: SQL[]) => sql`(${sql.join(parts, sql` or `)})`;
  const tests = anyOf(arms.map((arm) => arm.test));
  if (use === 'index' && arms.every((arm) => arm.found)) return sql`(${anyOf(arms.map((arm) => arm.found!))} and ${tests})`;
  return tests;
}
