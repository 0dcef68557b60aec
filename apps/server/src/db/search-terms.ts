import * as OpenCC from 'opencc-js';
import { pinyin } from 'pinyin-pro';
import ToJyutping from 'to-jyutping';
import type { DatabaseHandle } from './client';
import { withTryTransactionLock } from './advisory-lock';
import { hkSpellings } from './hk-romanisation';

/**
 * One shared normaliser for a customer's Chinese name (ADR 0046): what is stored in
 * `customer.search_terms` by every write path, held by the book index, and what a keyword is
 * compared with. Both search paths test the same stored text, so they agree by construction.
 *
 * The text is the name folded to Simplified characters, then the lower-case words a manager may
 * type for it: every Hong Kong spelling of each Cantonese syllable, the pinyin of each syllable, the
 * given name's syllables joined (`chiming`, `zhiming`), and the initials in both orders (`wcm`,
 * `cmw`). Words are separated by one space and the text starts with the folded name, so a word
 * prefix is ` term` and the folded name can only match a keyword made of Chinese characters.
 */

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
const CJK_ALL = /^[\u3400-\u9fff\uf900-\ufaff]+$/;

// Traditional → Simplified one character at a time: Taiwan variants first (著 → 着), then Hong Kong
// ones and the Traditional characters (衞 → 卫). Names are not phrases, so per character is what both
// a name and a keyword get; it is cached, since a book has a few thousand distinct characters.
const fromTaiwan = OpenCC.Converter({ from: 'tw', to: 'cn' });
const fromHongKong = OpenCC.Converter({ from: 'hk', to: 'cn' });
const foldedChars = new Map<string, string>();
const MAX_CACHED_CHARS = 50_000;

function foldChar(char: string): string {
  let folded = foldedChars.get(char);
  if (folded === undefined) {
    folded = CJK.test(char) ? fromHongKong(fromTaiwan(char)) : char;
    if (foldedChars.size >= MAX_CACHED_CHARS) foldedChars.clear();
    foldedChars.set(char, folded);
  }
  return folded;
}

const toHongKong = OpenCC.Converter({ from: 'cn', to: 'hk' });

/** Chinese text in Traditional characters as Hong Kong writes them (for tools and tests that type a name so). */
export const traditionalChinese = (text: string): string => toHongKong(text);

/** Chinese text in Simplified characters (黃 → 黄, 張偉 → 张伟); other characters unchanged. */
export function foldChinese(text: string): string {
  let out = '';
  for (const char of text) out += foldChar(char);
  return out;
}

/** Two-character surnames (folded): their syllables form one surname (欧阳 AU YEUNG / OUYANG). */
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

/**
 * Surnames whose Cantonese reading differs from the character's everyday one (to-jyutping has no
 * surname mode): 曾 TSANG, not cang4; 區 AU, 單 SIN, 仇 KAU. Keyed by the folded character.
 */
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

function cached<T>(map: Map<string, T>, key: string, compute: () => T): T {
  let value = map.get(key);
  if (value === undefined && !map.has(key)) {
    value = compute();
    if (map.size >= MAX_CACHED_CHARS) map.clear();
    map.set(key, value);
  }
  return value as T;
}

/** A character's Jyutping (a surname's reading when `surname`); null when it has none. */
function jyutping(raw: string, folded: string, surname: boolean): string | null {
  if (surname && CANTONESE_SURNAME_READINGS[folded]) return CANTONESE_SURNAME_READINGS[folded];
  return cached(jyutpingOf, raw, () => ToJyutping.getJyutpingList(raw)[0]?.[1] ?? null);
}

/** A folded character's pinyin without tones, `ü` as `v` (LV), a surname's reading when `surname`. */
function pinyinSyllable(folded: string, surname: boolean): string {
  return cached(surname ? surnamePinyinOf : pinyinOf, folded, () =>
    pinyin(folded, { toneType: 'none', v: true, ...(surname ? { surname: 'head' as const } : {}) }).toLowerCase(),
  );
}

/** The spellings of a pinyin syllable: as written, and `ü` also as U and YU (吕 LV, LU, LYU). */
const pinyinSpellings = (syllable: string) =>
  syllable.includes('v') ? [syllable, syllable.replace('v', 'u'), syllable.replace('v', 'yu')] : [syllable];

/** How a Chinese name reads, syllable by syllable, in the usual spelling of each ('' where a character has no reading). */
export interface NameReadings {
  /** 1, or 2 for a two-character surname (欧阳). */
  surnameLength: number;
  /** Hong Kong Cantonese: `['wong', 'chi', 'ming']`. */
  cantonese: string[];
  /** Pinyin without tones: `['huang', 'zhi', 'ming']`. */
  pinyin: string[];
}

/** The readings of the Chinese characters of a name (others are left out). */
export function nameReadings(nameCn: string): NameReadings {
  const raw = [...nameCn].filter((char) => CJK.test(char));
  const folded = raw.map(foldChar);
  const surnameLength = folded.length > 2 && COMPOUND_SURNAMES.has(folded[0]! + folded[1]!) ? 2 : 1;
  return {
    surnameLength,
    cantonese: raw.map((char, index) => {
      const jyut = jyutping(char, folded[index]!, index < surnameLength);
      return (jyut ? hkSpellings(jyut)[0] : undefined) ?? '';
    }),
    pinyin: folded.map((char, index) => pinyinOfChar(char, index < surnameLength)),
  };
}

/** A folded character's pinyin, '' when it has none in letters. */
function pinyinOfChar(folded: string, surname: boolean): string {
  const syllable = pinyinSyllable(folded, surname);
  return /^[a-z]+$/.test(syllable) ? syllable : '';
}

/** The romanisation words of a folded Chinese name (see the module comment); raw keeps each character's Cantonese. */
function romanisedWords(raw: string[], folded: string[]): string[] {
  const words = new Set<string>();
  const surnameLength = folded.length > 2 && COMPOUND_SURNAMES.has(folded[0]! + folded[1]!) ? 2 : 1;
  const cantonese: string[] = [];
  const mandarin: string[] = [];
  for (let index = 0; index < folded.length; index += 1) {
    const surname = index < surnameLength;
    const jyut = jyutping(raw[index]!, folded[index]!, surname);
    const spellings = jyut ? hkSpellings(jyut) : [];
    for (const spelling of spellings) words.add(spelling);
    cantonese.push(spellings[0] ?? '');
    const syllable = pinyinOfChar(folded[index]!, surname);
    for (const spelling of syllable ? pinyinSpellings(syllable) : []) words.add(spelling);
    mandarin.push(syllable);
  }
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

/**
 * The stored search text of a customer's Chinese name: its Chinese characters folded (nothing else
 * of it: other characters are found by the name's own arm), a space, then its romanisation words
 * separated by spaces. A name without a Chinese character gives `' '`, which nothing matches.
 */
export function searchTerms(nameCn: string): string {
  // Names repeat (a surname and two given characters from a few thousand): a seed of 1,000,000
  // customers computes far fewer.
  const known = termsOfName.get(nameCn);
  if (known !== undefined) return known;
  const terms = computeSearchTerms(nameCn);
  if (termsOfName.size >= MAX_CACHED_NAMES) termsOfName.clear();
  termsOfName.set(nameCn, terms);
  return terms;
}

const termsOfName = new Map<string, string>();
const MAX_CACHED_NAMES = 100_000;

function computeSearchTerms(nameCn: string): string {
  const chinese = [...nameCn].filter((char) => CJK.test(char));
  const folded = chinese.map(foldChar);
  const words = chinese.length ? romanisedWords(chinese, folded) : [];
  return `${folded.join('')} ${words.join(' ')}`;
}

/** A keyword made only of Chinese characters (spaces ignored), folded; null otherwise. */
export function foldedChineseKeyword(text: string): string | null {
  const compact = text.replace(/\s+/g, '');
  return CJK_ALL.test(compact) ? foldChinese(compact) : null;
}

/** At most this many words of a romanised keyword are tested (each one a LIKE). */
const MAX_ROMANISED_WORDS = 4;

/**
 * A keyword that reads as romanisation (Latin letters, with spaces, hyphens, apostrophes or dots
 * between words): its lower-case words, each of which must begin a word of the name's terms.
 */
export function romanisedKeyword(text: string): string[] | null {
  if (!/^[A-Za-z][A-Za-z\s'.-]*$/.test(text)) return null;
  const words = text
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);
  return words.length > 0 && words.length <= MAX_ROMANISED_WORDS ? words : null;
}

/**
 * A customer number's key: its trailing digits without leading zeros (`C00001234` → `1234`); null
 * when it ends in no digit or only zeros. PostgreSQL computes the same key for the index of
 * migration 0029: `nullif(ltrim(substring(customer_no from '[0-9]+$'), '0'), '')`.
 */
export function customerNoKey(customerNo: string): string | null {
  const digits = /[0-9]+$/.exec(customerNo)?.[0].replace(/^0+/, '');
  return digits ? digits : null;
}

/** A customer number as typed: optional letters (any case) then digits (any leading zeros), e.g. `c1234`, `00001234`. */
export interface CustomerNoKeyword {
  /** Upper-case ASCII letters the number must start with (`''`: any). */
  prefix: string;
  /** customerNoKey of the number. */
  key: string;
}

/** Letters A–Z upper-cased and nothing else, as PostgreSQL's upper() does for them in any locale. */
export const upperAscii = (text: string) => text.replace(/[a-z]+/g, (letters) => letters.toUpperCase());

export function customerNoKeyword(text: string): CustomerNoKeyword | null {
  const match = /^([A-Za-z]{0,8})[\s-]?([0-9]{1,20})$/.exec(text);
  if (!match) return null;
  const key = customerNoKey(match[2]!);
  return key ? { prefix: upperAscii(match[1]!), key } : null;
}

/** Rows one fill statement computes and writes (one book-version bump per book touched). */
const FILL_BATCH = 500;

/** Any stable number; distinct from the migration (727_001), demo-seed (727_002) and MOT sweep (727_007) locks. */
export const SEARCH_TERMS_FILL_LOCK_KEY = 727_008;

/** Runs one statement and returns its rows: the pool's, or the one connection that holds the fill's lock. */
type RunQuery = <Row>(text: string, params: unknown[]) => Promise<Row[]>;

/** What one batch of the fill did: `busy` when another replica is filling at that moment. */
export type SearchTermsFillStep =
  | { status: 'busy' }
  | {
      status: 'filled';
      /** Customers without terms read past the cursor (computed once each). */
      read: number;
      written: number;
      /** Where the next batch starts: the last id read, or `'0'` once the round has reached the end. */
      nextAfterId: string;
    };

/**
 * Computes `search_terms` for up to `limit` customers that have none (just migrated, or renamed by a
 * statement that did not write them: migration 0029's trigger cleared them) with an id above
 * `afterId`, in id order. A keyset cursor, not "the first missing rows": each filled row leaves a dead
 * entry in the partial index of missing rows until vacuum, and a scan from the first id walks them all
 * again each batch (quadratic: a million rows took 736 s). A row whose name changed since it was read
 * is left behind the cursor for the next round, which starts again from the first id.
 */
async function fillBatch(run: RunQuery, afterId: string, limit: number): Promise<{ read: number; written: number; nextAfterId: string }> {
  const rows = await run<{ id: string; name_cn: string }>(
    // By the column, not the text alias (`order by id` would sort '10' before '9' and the cursor would skip rows).
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
 * One batch of the fill after `afterId`, by at most one process at a time on a database: on
 * PostgreSQL, replicas take turns on a transaction advisory lock (try-lock, so a replica finding it
 * held answers `busy` and does nothing), the batch running in the lock's transaction, so the lock is
 * released with it even through a transaction-mode pooler; PGlite has one process, and one fill per
 * handle is guarded here.
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

/**
 * Fills every missing `search_terms` now, one pass of the cursor (tools and tests that load rows by
 * SQL, when nothing renames customers meanwhile), waiting while another process holds the fill.
 * Returns how many it wrote.
 */
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
 * Fills every missing `search_terms` in the background, a batch at a time with a pause between
 * batches, so a database migrated with a million customers is filled in minutes without taking a
 * core from the requests (ADR 0046). Every replica runs it; one batch runs at a time across them
 * (`fillSearchTermsStep`). Each walks its own cursor through the ids and starts again from the first
 * once it reaches the end; when a round from the first id finds nothing, it looks again much later.
 * Until a row is filled, only its folded and romanised forms are not found (its name, number,
 * phone… are). Returns a stop function (resolves once no batch runs); `onProgress` hears each batch
 * that read rows.
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
        // Nothing missing from the first id on: look again much later (a rename by a bulk statement clears a few rows' terms).
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
