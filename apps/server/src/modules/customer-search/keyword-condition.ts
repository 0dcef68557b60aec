import { sql, type Column, type SQL } from 'drizzle-orm';
import { containsPattern } from '../../db/sql-rows';
import type { CustomerKeyword } from './customer-keyword';
import { a, accountA, c } from './customer-tables';

/**
 * `index`: written so the keyword's GIN indexes can find its matches. `filter`: so they cannot, for a keyword
 * too short for them: the planner's trigram estimates are wrong a hundredfold both ways (ADR 0009).
 */
export type KeywordUse = 'index' | 'filter';

/** `|| ''` hides a column from the GIN indexes and changes no value. */
const unindexed = (column: Column | SQL) => sql`(${column} || '')`;

/** `test` decides exactly; `found` finds the arm's candidates through an index (it holds every row `test` passes). */
interface KeywordArm {
  found?: SQL;
  test: SQL;
}

/**
 * The keyword's arms. Grams are qualified by the book (migration 0015), so a GIN returns this manager's
 * candidates only; LIKE confirms them, hidden from the trigram indexes (a generic plan read every entry of
 * customer_name_cn_trgm for a two-character term). With an index for every arm the condition is
 * `(found₁ or …) and (test₁ or …)`: the first group is the BitmapOr's condition, which PostgreSQL then does not
 * re-run per row (per arm, the gram functions ran on every row). Each `test` implies its `found`.
 */
export function keywordCondition(keyword: CustomerKeyword, scope: { corpId: number; staffId: number }, use: KeywordUse = 'index'): SQL {
  const { corpId, staffId } = scope;
  const arms: KeywordArm[] = [];
  const pattern = containsPattern(keyword.text);
  const column = (name: Column) => (use === 'index' ? sql`${name}` : unindexed(name));
  if (keyword.chineseName) {
    // Two Chinese characters: the book's character pairs (pg_trgm cannot narrow them). One: LIKE over the covering
    // index, as a common surname matches too much of a book for an index to pay.
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
      // The name folded to Simplified (ADR 0046), indexed by migration 0029.
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
      const test = sql`${column(c.nameEn)} ilike ${pattern}`;
      arms.push(use === 'index' ? { found: test, test } : { test });
    }
  }
  if (keyword.romanised) {
    // Words are lower case, letters only.
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
    // The digits without leading zeros (customer_no_key_idx), and the letters typed before them.
    const { key, prefix } = keyword.customerNo;
    const number = use === 'index' ? sql`${c.customerNo}` : unindexed(c.customerNo);
    const letters = prefix
      ? sql` and translate(left(${c.customerNo}, ${prefix.length}::int), 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') = ${prefix}`
      : sql``;
    const digits = sql`(${c.corpId} = ${corpId} and nullif(ltrim(substring(${number} from '[0-9]+$'), '0'), '') = ${key} and ${c.staffId} = ${staffId})`;
    // The letters only confirm, so that the found group stays exactly the BitmapOr's condition.
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
    // Account numbers are unique per corp: a scalar subquery runs once and can drive an index arm of the OR.
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
