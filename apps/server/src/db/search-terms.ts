import * as OpenCC from 'opencc-js';
import { pinyin } from 'pinyin-pro';
import ToJyutping from 'to-jyutping';
import type { DatabaseHandle } from './client';
import { withTryTransactionLock } from './advisory-lock';
import { hkSpellings } from './hk-romanisation';

/**
 * The one normaliser of a customer's Chinese name (ADR 0046), stored in `customer.search_terms`: the name
 * folded to Simplified, then the lower-case words a manager may type for it (Hong Kong spellings, pinyin, the
 * given name joined, initials in both orders), one space apart, so a word prefix is ` term`.
 */

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
const CJK_ALL = /^[\u3400-\u9fff\uf900-\ufaff]+$/;

// Per character, Taiwan variants first (著 → 着): names are not phrases. Cached: a book has a few thousand.
const fromTaiwan = OpenCC.Converter({ from: 'tw', to: 'cn' });
const fromHongKong = OpenCC.Converter({ from: 'hk', to: 'cn' });
const foldedChars = new Map<string, string>();
const MAX_CACHED_CHARS = 50_000;

const foldChar = (char: string): string => cached(foldedChars, char, () => (CJK.test(char) ? fromHongKong(fromTaiwan(char)) : char));

/** As Hong Kong writes them (for tools and tests that type a name so). */
export const traditionalChinese: (text: string) => string = OpenCC.Converter({ from: 'cn', to: 'hk' });

/** 黃 → 黄, 張偉 → 张伟; other characters unchanged. */
export const foldChinese = (text: string): string => [...text].map(foldChar).join('');

/** Their syllables form one surname (欧阳 AU YEUNG / OUYANG). */
const COMPOUND_SURNAMES = new Set([
  '欧阳',
  '司徒',
  '上官',
  '诸葛',
  '司马',
  '夏侯',
  '东方',
  '皇甫',
  '尉迟',
  '公孙',
  '慕容',
  '长孙',
  '宇文',
  '令狐',
  '端木',
  '西门',
  '南宫',
  '轩辕',
  '呼延',
  '澹台',
]);

/** Surnames whose Cantonese reading is not the everyday one (to-jyutping has no surname mode). */
const CANTONESE_SURNAME_READINGS: Record<string, string> = {
  曾: 'zang1',
  区: 'au1',
  单: 'sin6',
  仇: 'kau4',
  解: 'haai6',
  缪: 'miu6',
  覃: 'tam4',
  盖: 'koi3',
  任: 'jam4',
  翟: 'zaak6',
  员: 'wan4',
  华: 'waa6',
  查: 'caa4',
  朴: 'piu4',
  车: 'ce1',
  乐: 'lok6',
};

const jyutpingOf = new Map<string, string | null>();
const pinyinOf = new Map<string, string>();
const surnamePinyinOf = new Map<string, string>();

/** `map`'s value for `key`, computed once; the map is emptied when it reaches `limit`. */
function cached<T>(map: Map<string, T>, key: string, compute: () => T, limit = MAX_CACHED_CHARS): T {
  let value = map.get(key);
  if (value === undefined && !map.has(key)) {
    value = compute();
    if (map.size >= limit) map.clear();
    map.set(key, value);
  }
  return value as T;
}

function jyutping(raw: string, folded: string, surname: boolean): string | null {
  if (surname && CANTONESE_SURNAME_READINGS[folded]) return CANTONESE_SURNAME_READINGS[folded];
  return cached(jyutpingOf, raw, () => ToJyutping.getJyutpingList(raw)[0]?.[1] ?? null);
}

/** `ü` also as U and YU (吕 LV, LU, LYU). */
const pinyinSpellings = (syllable: string) =>
  syllable.includes('v') ? [syllable, syllable.replace('v', 'u'), syllable.replace('v', 'yu')] : [syllable];

/** Each character's first Hong Kong spelling and its pinyin: '' where a character has no reading. */
export function nameReadings(nameCn: string) {
  const raw = [...nameCn].filter((char) => CJK.test(char));
  const { surnameLength, chars } = charReadings(raw, raw.map(foldChar));
  return { surnameLength, cantonese: chars.map((char) => char.cantonese[0] ?? ''), pinyin: chars.map((char) => char.pinyin) };
}

/** Each character's Hong Kong spellings and pinyin ('' without one); `raw` keeps each character's Cantonese. */
function charReadings(raw: string[], folded: string[]) {
  const surnameLength = folded.length > 2 && COMPOUND_SURNAMES.has(folded[0]! + folded[1]!) ? 2 : 1;
  const chars = folded.map((char, index) => {
    const jyut = jyutping(raw[index]!, char, index < surnameLength);
    return { cantonese: jyut ? hkSpellings(jyut) : [], pinyin: pinyinOfChar(char, index < surnameLength) };
  });
  return { surnameLength, chars };
}

/** Without tones, `ü` as `v` (LV); '' where the character has no reading. */
function pinyinOfChar(folded: string, surname: boolean): string {
  const syllable = cached(surname ? surnamePinyinOf : pinyinOf, folded, () =>
    pinyin(folded, { toneType: 'none', v: true, ...(surname ? { surname: 'head' as const } : {}) }).toLowerCase(),
  );
  return /^[a-z]+$/.test(syllable) ? syllable : '';
}

function romanisedWords(raw: string[], folded: string[]): string[] {
  const words = new Set<string>();
  const { surnameLength, chars } = charReadings(raw, folded);
  for (const char of chars) {
    for (const spelling of char.cantonese) words.add(spelling);
    for (const spelling of char.pinyin ? pinyinSpellings(char.pinyin) : []) words.add(spelling);
  }
  const cantonese = chars.map((char) => char.cantonese[0] ?? '');
  const mandarin = chars.map((char) => char.pinyin);
  for (const reading of [cantonese, mandarin]) {
    if (reading.some((syllable) => !syllable)) continue;
    const surname = reading.slice(0, surnameLength);
    const given = reading.slice(surnameLength);
    if (surnameLength > 1) words.add(surname.join(''));
    if (given.length > 1) words.add(given.join(''));
    if (reading.length > 1) {
      const initials = (syllables: string[]) => syllables.map((syllable) => syllable[0]).join('');
      words.add(initials(reading));
      words.add(initials(given) + initials(surname));
    }
  }
  return [...words];
}

/** Only the Chinese characters are folded (others are found by the name's own arm); none gives `' '`. */
export function searchTerms(nameCn: string): string {
  // Names repeat: a large seed computes far fewer than it has customers.
  return cached(
    termsOfName,
    nameCn,
    () => {
      const chinese = [...nameCn].filter((char) => CJK.test(char));
      const folded = chinese.map(foldChar);
      const words = chinese.length ? romanisedWords(chinese, folded) : [];
      return `${folded.join('')} ${words.join(' ')}`;
    },
    MAX_CACHED_NAMES,
  );
}

const termsOfName = new Map<string, string>();
const MAX_CACHED_NAMES = 100_000;

/** Only Chinese characters (spaces ignored), folded; null otherwise. */
export function foldedChineseKeyword(text: string): string | null {
  const compact = text.replace(/\s+/g, '');
  return CJK_ALL.test(compact) ? foldChinese(compact) : null;
}

/** Each word is one LIKE. */
const MAX_ROMANISED_WORDS = 4;

/** Latin letters with spaces, hyphens, apostrophes or dots between words: its lower-case words. */
export function romanisedKeyword(text: string): string[] | null {
  if (!/^[A-Za-z][A-Za-z\s'.-]*$/.test(text)) return null;
  const words = text
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);
  return words.length > 0 && words.length <= MAX_ROMANISED_WORDS ? words : null;
}

/**
 * Trailing digits without leading zeros (`C00001234` → `1234`); null when none. Migration 0029's index
 * computes the same: `nullif(ltrim(substring(customer_no from '[0-9]+$'), '0'), '')`.
 */
export function customerNoKey(customerNo: string): string | null {
  const digits = /[0-9]+$/.exec(customerNo)?.[0].replace(/^0+/, '');
  return digits ? digits : null;
}

/** Optional letters then digits, e.g. `c1234`, `00001234`. */
export interface CustomerNoKeyword {
  /** `''`: any. */
  prefix: string;
  key: string;
}

/** As PostgreSQL's upper() does for them in any locale. */
export const upperAscii = (text: string) => text.replace(/[a-z]+/g, (letters) => letters.toUpperCase());

export function customerNoKeyword(text: string): CustomerNoKeyword | null {
  const match = /^([A-Za-z]{0,8})[\s-]?([0-9]{1,20})$/.exec(text);
  if (!match) return null;
  const key = customerNoKey(match[2]!);
  return key ? { prefix: upperAscii(match[1]!), key } : null;
}

/** One book-version bump per book touched per statement. */
const FILL_BATCH = 500;

/** Distinct from the migration (727_001), demo-seed (727_002) and MOT sweep (727_007) locks. */
export const SEARCH_TERMS_FILL_LOCK_KEY = 727_008;

type RunQuery = <Row>(text: string, params: unknown[]) => Promise<Row[]>;

export type SearchTermsFillStep =
  | { status: 'busy' }
  | {
      status: 'filled';
      read: number;
      written: number;
      /** `'0'` once the round has reached the end. */
      nextAfterId: string;
    };

/**
 * Missing terms (migration 0029's trigger clears them on a rename) after `afterId`, by a keyset cursor: each
 * filled row leaves a dead entry in the partial index until vacuum, so "the first missing rows" each batch
 * was quadratic. A row renamed since it was read waits for the next round.
 */
async function fillBatch(run: RunQuery, afterId: string, limit: number): Promise<{ read: number; written: number; nextAfterId: string }> {
  const rows = await run<{ id: string; name_cn: string }>(
    // By the column: the text alias would sort '10' before '9' and the cursor skip rows.
    'select id::text as id, name_cn from customer where search_terms is null and id > $1::bigint order by customer.id limit $2',
    [afterId, limit],
  );
  if (rows.length === 0) return { read: 0, written: 0, nextAfterId: '0' };
  const updated = await run<{ id: string }>(
    `update customer c set search_terms = v.terms
       from unnest($1::bigint[], $2::text[], $3::text[]) as v(id, name_cn, terms)
      where c.id = v.id and c.name_cn = v.name_cn and c.search_terms is null
      returning c.id`,
    [rows.map((row) => row.id), rows.map((row) => row.name_cn), rows.map((row) => searchTerms(row.name_cn))],
  );
  const reachedEnd = rows.length < limit;
  return { read: rows.length, written: updated.length, nextAfterId: reachedEnd ? '0' : rows[rows.length - 1]!.id };
}

/**
 * One process at a time: replicas try a transaction advisory lock (`busy` when held), the batch inside the
 * lock's transaction so a transaction-mode pooler releases it; PGlite has one process, one fill per handle.
 */
export async function fillSearchTermsStep(
  database: Pick<DatabaseHandle, 'query' | 'kind' | 'pool'>,
  afterId = '0',
  limit = FILL_BATCH,
): Promise<SearchTermsFillStep> {
  if (filling.has(database)) return { status: 'busy' };
  filling.add(database);
  try {
    if (database.kind !== 'postgres' || !database.pool) {
      return { status: 'filled', ...(await fillBatch((text, params) => database.query(text, params), afterId, limit)) };
    }
    const step = await withTryTransactionLock(database.pool, SEARCH_TERMS_FILL_LOCK_KEY, (client) =>
      fillBatch(async (text, params) => (await client.query(text, params)).rows, afterId, limit),
    );
    return step.status === 'ran' ? { status: 'filled', ...step.value } : { status: 'busy' };
  } finally {
    filling.delete(database);
  }
}

const filling = new WeakSet<object>();

/** Fills every missing term in one pass (tools and tests that load rows by SQL); returns how many it wrote. */
export async function fillAllSearchTerms(database: Pick<DatabaseHandle, 'query' | 'kind' | 'pool'>, limit = FILL_BATCH): Promise<number> {
  let written = 0;
  let afterId = '0';
  for (;;) {
    const step = await fillSearchTermsStep(database, afterId, limit);
    if (step.status === 'busy') {
      await new Promise((resolve) => setTimeout(resolve, 50));
      continue;
    }
    written += step.written;
    if (step.nextAfterId === '0') return written;
    afterId = step.nextAfterId;
  }
}

/**
 * Fills missing terms in the background, a batch at a time with pauses, so a migrated million is filled
 * without taking a core from requests (ADR 0046); every replica runs it, one batch at a time across them.
 * Returns a stop function (resolves once no batch runs).
 */
export function startSearchTermsFill(
  database: Pick<DatabaseHandle, 'query' | 'kind' | 'pool'>,
  options: {
    pauseMs: number;
    batchSize?: number;
    onProgress?: (batch: { read: number; written: number }) => void;
    onError?: (error: unknown) => void;
  },
): () => Promise<void> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let afterId = '0';
  const round = async () => {
    if (stopped) return;
    let idle = false;
    try {
      const startedAt = afterId;
      const step = fillSearchTermsStep(database, afterId, options.batchSize ?? FILL_BATCH);
      running = step;
      const done = await step;
      if (done.status === 'filled') {
        if (done.read > 0) options.onProgress?.({ read: done.read, written: done.written });
        afterId = done.nextAfterId;
        // A bulk rename clears a few rows' terms: look again much later.
        idle = startedAt === '0' && done.read === 0;
      }
    } catch (error) {
      options.onError?.(error);
    }
    if (!stopped) timer = setTimeout(() => void round(), idle ? options.pauseMs * 60 : options.pauseMs);
    timer?.unref();
  };
  timer = setTimeout(() => void round(), options.pauseMs);
  timer.unref();
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await running?.catch(() => undefined);
  };
}
