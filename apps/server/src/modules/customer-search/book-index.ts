import type { CustomerCriteria } from './customer-filters';
import type { CustomerKeyword } from './customer-keyword';
import type { PageWindow, SortField, SortOrder } from './page-plan';

/**
 * What the in-memory index keeps of one customer: every field a search's keyword, filters and sort
 * read (ADR 0035). Amounts are whole cents, dates `YYYY-MM-DD`.
 */
export interface IndexedCustomer {
  id: number;
  channel: string;
  status: string;
  nameCn: string;
  nameEn: string;
  phoneDigits: string | null;
  idDocLast4: string;
  assetCents: number;
  openDate: string;
  lastTradeDate: string | null;
  heldMarkets: string[];
  kycBound: boolean;
  accountNos: string[];
}

/** A channel row of the header stat, as `customer-search.repository` returns it (HKD as exact text). */
export interface IndexedStatRow {
  channel: string;
  clients: number;
  totalAssetsHkd: string;
  active: number;
  newThisMonth: number;
}

/** Markets held are a bit set: the vocabulary of one book holds far fewer than this. */
const MAX_MARKETS = 30;
/** Statuses and channels are small codes. */
const MAX_CODES = 255;
/** A `lastTrade` that never happened sorts after every date when descending, as `nulls last` does. */
const NO_TRADE = -1;

/** `YYYY-MM-DD` as the number yyyymmdd (same order); undefined for anything else. */
export function dayKey(text: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  return match ? Number(match[1]) * 10_000 + Number(match[2]) * 100 + Number(match[3]) : undefined;
}

/** Whole cents as the exact decimal text PostgreSQL's numeric sum would give (two places). */
export function centsText(cents: bigint): string {
  const sign = cents < 0n ? '-' : '';
  const whole = cents < 0n ? -cents : cents;
  return `${sign}${whole / 100n}.${String(whole % 100n).padStart(2, '0')}`;
}

/**
 * A bound in HKD as whole cents, as PostgreSQL compares numeric with it: the drivers send the number
 * as JavaScript prints it, its shortest exact decimal (`0.1 + 0.2` is sent as 0.30000000000000004,
 * which a client at 0.30 is below), so that decimal is read exactly here and a finer bound rounded
 * inwards ('up' for a minimum, 'down' for a maximum). Undefined for NaN or an infinity: SQL answers.
 * (Scaling the double instead, `hkd * 100` read to 15 digits, lost the 16th and 17th and counted the
 * 0.30 client in; the equivalence test found it.)
 */
export function boundCents(hkd: number, inwards: 'up' | 'down'): number | undefined {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(hkd));
  if (!match) return undefined;
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  const digits = BigInt(whole! + fraction);
  // |hkd| in cents is digits × 10^shift.
  const shift = Number(exponent) - fraction.length + 2;
  if (shift >= 0) return Number((sign ? -digits : digits) * 10n ** BigInt(shift));
  const scale = 10n ** BigInt(-shift);
  const truncated = digits / scale;
  const exact = truncated * scale === digits;
  // Away from zero when the rounding goes that way for this sign: up for a positive bound, down for a negative one.
  const away = !exact && (inwards === 'up') === !sign;
  const magnitude = away ? truncated + 1n : truncated;
  return magnitude === 0n ? 0 : Number(sign ? -magnitude : magnitude);
}

/**
 * Lower case as ILIKE folds it (PostgreSQL's lower(), a UTF-8 ctype: character by character).
 * JavaScript's toLowerCase differs in two places only: İ becomes i + U+0307, and Σ ending a word
 * becomes ς; PostgreSQL gives i and σ. (`İPEK` was not found by `ipek` in memory; the equivalence
 * test found it.) A database whose ctype is C folds only A–Z, and is not what the index assumes.
 */
export const lowerAsSql = (text: string) => text.replace(/[\u0130\u03a3]/g, (char) => (char === '\u0130' ? 'i' : '\u03c3')).toLowerCase();

/** Grows a typed array to hold at least `size` entries. */
function grown<T extends Float64Array | Int32Array | Uint8Array | Uint32Array>(array: T, size: number): T {
  if (size <= array.length) return array;
  const next = new (array.constructor as new (length: number) => T)(Math.max(size, array.length * 2, 64));
  next.set(array);
  return next;
}

/** A small vocabulary: code ↔ number. */
class Codes {
  readonly numbers = new Map<string, number>();
  constructor(private readonly limit: number) {}
  numberOf(code: string): number {
    let number = this.numbers.get(code);
    if (number === undefined) {
      number = this.numbers.size;
      if (number >= this.limit) throw new BookTooVaried(`more than ${this.limit} distinct codes`);
      this.numbers.set(code, number);
    }
    return number;
  }
}

/** A book whose codes do not fit the index's compact columns: it is searched in SQL instead. */
export class BookTooVaried extends Error {}

/**
 * Slots of rows holding a gram. Built in bulk as a typed array; rows changed later are appended to
 * `extra`. Entries are never removed: a candidate is always confirmed against the row's current text,
 * so an entry left by an old value costs a test and changes no answer.
 */
interface Posting {
  base: Int32Array;
  extra: number[] | undefined;
}

type TextField = 'cn' | 'en' | 'phone';

/** Which substrings a field's grams are kept for: two and three characters (CJK names: one and two as well). */
function gramsOf(field: TextField, text: string): Set<string> {
  const grams = new Set<string>();
  const chars = [...text];
  const lengths = field === 'cn' ? [1, 2, 3] : [2, 3];
  for (const length of lengths) {
    for (let start = 0; start + length <= chars.length; start += 1) grams.add(chars.slice(start, start + length).join(''));
  }
  return grams;
}

/** The gram the index can look a term up by (the term itself when short), or undefined when it has none. */
function lookupGrams(field: TextField, term: string): string[] | undefined {
  const chars = [...term];
  const shortest = field === 'cn' ? 1 : 2;
  if (chars.length < shortest) return undefined;
  if (chars.length <= 3) return [term];
  const grams: string[] = [];
  for (let start = 0; start + 3 <= chars.length; start += 1) grams.push(chars.slice(start, start + 3).join(''));
  return grams;
}

/** A page of ids in the list's order, and how many customers match in all. */
export interface IndexedPage {
  ids: number[];
  total: number;
}

/**
 * One client manager's book in memory: compact columns per row slot, gram postings for the name and
 * phone keyword arms, and the book's order under each sort. It answers exactly what the SQL search
 * (`customerWhere`, `customerOrder`) answers for the same rows — the equivalence test runs both on
 * random criteria — and is brought up to date by `apply` from the book's change log (ADR 0035).
 *
 * Everything here is synchronous: a query never sees a half-applied change.
 */
export class BookIndex {
  /** The book version the rows are those of (`staff_book_version`, as text). */
  version: string;
  private size = 0;
  private live = 0;
  private ids = new Float64Array(0);
  private alive = new Uint8Array(0);
  private channel = new Uint8Array(0);
  private status = new Uint8Array(0);
  private kyc = new Uint8Array(0);
  private markets = new Uint32Array(0);
  private cents = new Float64Array(0);
  private openDay = new Int32Array(0);
  private lastTradeDay = new Int32Array(0);
  private nameCn: string[] = [];
  private nameEnLower: string[] = [];
  private phoneDigits: (string | null)[] = [];
  private idDocLast4: string[] = [];
  private accountNos: string[][] = [];
  private readonly slotOfId = new Map<number, number>();
  /** Account number → slots holding it (a number is unique per corp; a stale slot is confirmed away). */
  private readonly accountSlots = new Map<string, number[]>();
  private readonly channels = new Codes(MAX_CODES);
  private readonly statuses = new Codes(MAX_CODES);
  private readonly marketBits = new Codes(MAX_MARKETS);
  private readonly postings: Record<TextField, Map<string, Posting>> = { cn: new Map(), en: new Map(), phone: new Map() };
  /** Slots in descending order of each sort (ascending is the same walked backwards); built when first needed. */
  private readonly orders = new Map<SortField, Int32Array>();
  /** Per-query marks: `stamp[slot] === mark` means "a candidate of this query". */
  private stamp = new Uint32Array(0);
  private mark = 0;

  constructor(version: string, rows: IndexedCustomer[]) {
    this.version = version;
    const bulk: Record<TextField, Map<string, number[]>> = { cn: new Map(), en: new Map(), phone: new Map() };
    for (const row of rows) this.write(row, bulk);
    for (const field of ['cn', 'en', 'phone'] as const) {
      for (const [gram, slots] of bulk[field]) this.postings[field].set(gram, { base: Int32Array.from(slots), extra: undefined });
    }
  }

  /** Customers held. */
  get rows(): number {
    return this.live;
  }

  /**
   * Brings the index to `version`: `rows` are the current rows of the customers logged since the
   * last version that are still in the book; every other logged id has left it (deleted or reassigned).
   */
  apply(version: string, changedIds: number[], rows: IndexedCustomer[]): void {
    const present = new Set(rows.map((row) => row.id));
    for (const id of changedIds) {
      if (present.has(id)) continue;
      const slot = this.slotOfId.get(id);
      if (slot === undefined) continue;
      this.alive[slot] = 0;
      this.slotOfId.delete(id);
      this.live -= 1;
    }
    for (const row of rows) this.write(row, undefined);
    this.orders.clear();
    this.version = version;
  }

  /** Stores a row in its slot (a new one for a new customer); grams go to `bulk` while building. */
  private write(row: IndexedCustomer, bulk: Record<TextField, Map<string, number[]>> | undefined): void {
    let slot = this.slotOfId.get(row.id);
    if (slot === undefined) {
      slot = this.size;
      this.size += 1;
      this.live += 1;
      this.slotOfId.set(row.id, slot);
      this.ids = grown(this.ids, this.size);
      this.alive = grown(this.alive, this.size);
      this.channel = grown(this.channel, this.size);
      this.status = grown(this.status, this.size);
      this.kyc = grown(this.kyc, this.size);
      this.markets = grown(this.markets, this.size);
      this.cents = grown(this.cents, this.size);
      this.openDay = grown(this.openDay, this.size);
      this.lastTradeDay = grown(this.lastTradeDay, this.size);
      this.stamp = grown(this.stamp, this.size);
    }
    const openDay = dayKey(row.openDate);
    if (openDay === undefined) throw new Error(`customer ${row.id}: open date ${row.openDate} is not a day`);
    this.ids[slot] = row.id;
    this.alive[slot] = 1;
    this.channel[slot] = this.channels.numberOf(row.channel);
    this.status[slot] = this.statuses.numberOf(row.status);
    this.kyc[slot] = row.kycBound ? 1 : 0;
    let bits = 0;
    for (const market of row.heldMarkets) bits |= 1 << this.marketBits.numberOf(market);
    this.markets[slot] = bits;
    this.cents[slot] = row.assetCents;
    this.openDay[slot] = openDay;
    this.lastTradeDay[slot] = row.lastTradeDate === null ? NO_TRADE : (dayKey(row.lastTradeDate) ?? NO_TRADE);
    this.nameCn[slot] = row.nameCn;
    this.nameEnLower[slot] = lowerAsSql(row.nameEn);
    this.phoneDigits[slot] = row.phoneDigits;
    this.idDocLast4[slot] = row.idDocLast4;
    this.accountNos[slot] = row.accountNos;
    for (const accountNo of row.accountNos) {
      const slots = this.accountSlots.get(accountNo);
      if (!slots) this.accountSlots.set(accountNo, [slot]);
      else if (!slots.includes(slot)) slots.push(slot);
    }
    const texts: [TextField, string | null][] = [
      ['cn', row.nameCn],
      ['en', this.nameEnLower[slot]!],
      ['phone', row.phoneDigits],
    ];
    for (const [field, text] of texts) {
      if (!text) continue;
      for (const gram of gramsOf(field, text)) {
        if (bulk) {
          const slots = bulk[field].get(gram);
          if (slots) slots.push(slot);
          else bulk[field].set(gram, [slot]);
          continue;
        }
        const posting = this.postings[field].get(gram);
        if (!posting) this.postings[field].set(gram, { base: new Int32Array(0), extra: [slot] });
        else (posting.extra ??= []).push(slot);
      }
    }
  }

  /** The slots of a sort in descending order (key descending, then id ascending; no trade last). */
  private order(sortBy: SortField): Int32Array {
    let order = this.orders.get(sortBy);
    if (order) return order;
    const keys = sortBy === 'totalAssets' ? this.cents : sortBy === 'openDate' ? this.openDay : this.lastTradeDay;
    const slots: number[] = [];
    for (let slot = 0; slot < this.size; slot += 1) if (this.alive[slot]) slots.push(slot);
    const ids = this.ids;
    slots.sort((a, b) => keys[b]! - keys[a]! || ids[a]! - ids[b]!);
    order = Int32Array.from(slots);
    this.orders.set(sortBy, order);
    return order;
  }

  /**
   * A test of the filters (not the keyword) on a slot; undefined when the criteria hold a value the
   * index cannot decide exactly (a date that is not `YYYY-MM-DD`, a bound that is not a finite
   * number): the caller then asks SQL.
   */
  private filterTest(criteria: CustomerCriteria): ((slot: number) => boolean) | undefined {
    const tests: ((slot: number) => boolean)[] = [];
    const codeSet = (codes: Codes, values: string[] | undefined, column: Uint8Array) => {
      if (!values?.length) return;
      const allowed = new Uint8Array(MAX_CODES + 1);
      for (const value of values) {
        const number = codes.numbers.get(value);
        if (number !== undefined) allowed[number] = 1;
      }
      tests.push((slot) => allowed[column[slot]!] === 1);
    };
    codeSet(this.channels, criteria.channels, this.channel);
    codeSet(this.statuses, criteria.statuses, this.status);
    const cents = this.cents;
    if (criteria.assetMinHkd !== undefined) {
      const min = boundCents(criteria.assetMinHkd, 'up');
      if (min === undefined) return undefined;
      tests.push((slot) => cents[slot]! >= min);
    }
    if (criteria.assetMaxHkd !== undefined) {
      const max = boundCents(criteria.assetMaxHkd, 'down');
      if (max === undefined) return undefined;
      tests.push((slot) => cents[slot]! <= max);
    }
    const openDay = this.openDay;
    if (criteria.openDateFrom) {
      const from = dayKey(criteria.openDateFrom);
      if (from === undefined) return undefined;
      tests.push((slot) => openDay[slot]! >= from);
    }
    if (criteria.openDateTo) {
      const to = dayKey(criteria.openDateTo);
      if (to === undefined) return undefined;
      tests.push((slot) => openDay[slot]! <= to);
    }
    const kyc = this.kyc;
    if (criteria.kycBound !== undefined) {
      const wanted = criteria.kycBound ? 1 : 0;
      tests.push((slot) => kyc[slot] === wanted);
    }
    const markets = this.markets;
    if (criteria.markets?.length) {
      let wanted = 0;
      for (const market of criteria.markets) {
        const bit = this.marketBits.numbers.get(market);
        if (bit !== undefined) wanted |= 1 << bit;
      }
      tests.push((slot) => (markets[slot]! & wanted) !== 0);
    }
    if (criteria.hasHolding !== undefined) {
      const holding = criteria.hasHolding;
      tests.push((slot) => (markets[slot] !== 0) === holding);
    }
    const alive = this.alive;
    if (tests.length === 0) return (slot) => alive[slot] === 1;
    if (tests.length === 1) {
      const [only] = tests as [(slot: number) => boolean];
      return (slot) => alive[slot] === 1 && only(slot);
    }
    return (slot) => {
      if (alive[slot] !== 1) return false;
      for (const test of tests) if (!test(slot)) return false;
      return true;
    };
  }

  /** The keyword's exact test on a slot (`keywordCondition`'s arms, OR-ed). */
  private keywordTest(keyword: CustomerKeyword): (slot: number) => boolean {
    const text = keyword.text;
    const lower = lowerAsSql(text);
    const digits = keyword.phone?.digits;
    const { nameCn, nameEnLower, phoneDigits, idDocLast4, accountNos } = this;
    return (slot) =>
      (keyword.chineseName !== null && nameCn[slot]!.includes(text)) ||
      (keyword.englishName !== null && nameEnLower[slot]!.includes(lower)) ||
      (digits !== undefined && (phoneDigits[slot]?.includes(digits) ?? false)) ||
      (keyword.accountNo !== null && accountNos[slot]!.includes(keyword.accountNo)) ||
      (keyword.idDocTail !== null && idDocLast4[slot] === keyword.idDocTail);
  }

  /**
   * The slots that may match the keyword, from the postings of each arm; undefined when an arm has
   * no gram to look up (a single letter or digit): every row is then a candidate.
   */
  private keywordCandidates(keyword: CustomerKeyword): number[] | undefined {
    const lists: ArrayLike<number>[] = [];
    const byGrams = (field: TextField, term: string): boolean => {
      const grams = lookupGrams(field, term);
      if (!grams) return false;
      // The rarest gram's posting holds every row holding the term.
      let best: Posting | undefined;
      let bestSize = Infinity;
      for (const gram of grams) {
        const posting = this.postings[field].get(gram);
        const size = posting ? posting.base.length + (posting.extra?.length ?? 0) : 0;
        if (size < bestSize) {
          best = posting;
          bestSize = size;
        }
        if (size === 0) break;
      }
      if (best) {
        lists.push(best.base);
        if (best.extra) lists.push(best.extra);
      }
      return true;
    };
    if (keyword.chineseName && !byGrams('cn', keyword.text)) return undefined;
    if (keyword.englishName && !byGrams('en', lowerAsSql(keyword.text))) return undefined;
    if (keyword.phone && !byGrams('phone', keyword.phone.digits)) return undefined;
    if (keyword.accountNo) {
      const slots = this.accountSlots.get(keyword.accountNo);
      if (slots) lists.push(slots);
    }
    if (keyword.idDocTail) {
      // Rare enough to test by scanning would cost a whole pass; the tail is short, so keep a pass here.
      const tail = keyword.idDocTail;
      const found: number[] = [];
      const { idDocLast4 } = this;
      for (let slot = 0; slot < this.size; slot += 1) if (idDocLast4[slot] === tail) found.push(slot);
      lists.push(found);
    }
    // Distinct slots: a posting can hold a slot twice once its row has changed.
    this.mark = (this.mark + 1) >>> 0 || 1;
    if (this.mark === 1) this.stamp.fill(0);
    const { stamp, mark } = this;
    const candidates: number[] = [];
    for (const list of lists) {
      for (let index = 0; index < list.length; index += 1) {
        const slot = list[index]!;
        if (stamp[slot] !== mark) {
          stamp[slot] = mark;
          candidates.push(slot);
        }
      }
    }
    return candidates;
  }

  /** The test a row must pass: filters and keyword. Undefined when SQL must answer (see `filterTest`). */
  private matcher(criteria: CustomerCriteria): { test: (slot: number) => boolean; candidates: number[] | undefined } | undefined {
    const filters = this.filterTest(criteria);
    if (!filters) return undefined;
    if (!criteria.keyword) return { test: filters, candidates: undefined };
    const keywordTest = this.keywordTest(criteria.keyword);
    return { test: (slot) => filters(slot) && keywordTest(slot), candidates: this.keywordCandidates(criteria.keyword) };
  }

  /** One page of matching customers' ids in the list's order, and the total; undefined: ask SQL. */
  page(criteria: CustomerCriteria, sortBy: SortField, sortOrder: SortOrder, window: PageWindow): IndexedPage | undefined {
    const matcher = this.matcher(criteria);
    if (!matcher) return undefined;
    const { test, candidates } = matcher;
    const start = (window.pageNum - 1) * window.pageSize;
    const end = start + window.pageSize;
    if (candidates && candidates.length * 16 < this.live) {
      // Few candidates: confirm them and sort only those.
      const matches = candidates.filter(test);
      const keys = sortBy === 'totalAssets' ? this.cents : sortBy === 'openDate' ? this.openDay : this.lastTradeDay;
      const ids = this.ids;
      const descending = (a: number, b: number) => keys[b]! - keys[a]! || ids[a]! - ids[b]!;
      matches.sort(sortOrder === 'desc' ? descending : (a, b) => descending(b, a));
      return { ids: matches.slice(start, end).map((slot) => ids[slot]!), total: matches.length };
    }
    // Many candidates (or none to narrow by): walk the sort's order, testing each row, counting all.
    const order = this.order(sortBy);
    const pageIds: number[] = [];
    let total = 0;
    const consider = (slot: number) => {
      if (!test(slot)) return;
      if (total >= start && total < end) pageIds.push(this.ids[slot]!);
      total += 1;
    };
    const onlyCandidates = candidates ? this.stamp : undefined;
    const mark = this.mark;
    if (sortOrder === 'desc') {
      for (let index = 0; index < order.length; index += 1) {
        const slot = order[index]!;
        if (onlyCandidates && onlyCandidates[slot] !== mark) continue;
        consider(slot);
      }
    } else {
      for (let index = order.length - 1; index >= 0; index -= 1) {
        const slot = order[index]!;
        if (onlyCandidates && onlyCandidates[slot] !== mark) continue;
        consider(slot);
      }
    }
    return { ids: pageIds, total };
  }

  /**
   * The header stat per channel: clients, HKD total (exact to the cent), active, and new since
   * `monthStart` (`YYYY-MM-DD`, the Hong Kong month). Ordered as SQL orders it: clients descending,
   * then channel. Undefined: ask SQL.
   */
  stat(criteria: CustomerCriteria, monthStart: string): IndexedStatRow[] | undefined {
    const matcher = this.matcher(criteria);
    const monthDay = dayKey(monthStart);
    if (!matcher || monthDay === undefined) return undefined;
    const { test, candidates } = matcher;
    const channelCount = this.channels.numbers.size;
    const clients = new Float64Array(channelCount);
    // Cents are summed in two halves, each exact in a double whatever the book's size.
    const high = new Float64Array(channelCount);
    const low = new Float64Array(channelCount);
    const active = new Float64Array(channelCount);
    const fresh = new Float64Array(channelCount);
    const activeStatus = this.statuses.numbers.get('active');
    const { channel, status, cents, openDay } = this;
    const count = (slot: number) => {
      if (!test(slot)) return;
      const at = channel[slot]!;
      clients[at]! += 1;
      const amount = cents[slot]!;
      const upper = Math.floor(amount / 1e6);
      high[at]! += upper;
      low[at]! += amount - upper * 1e6;
      if (status[slot] === activeStatus) active[at]! += 1;
      if (openDay[slot]! >= monthDay) fresh[at]! += 1;
    };
    if (candidates) for (const slot of candidates) count(slot);
    else for (let slot = 0; slot < this.size; slot += 1) count(slot);
    const rows: IndexedStatRow[] = [];
    for (const [code, at] of this.channels.numbers) {
      if (clients[at] === 0) continue;
      const total = BigInt(high[at]!) * 1_000_000n + BigInt(low[at]!);
      rows.push({
        channel: code,
        clients: clients[at]!,
        totalAssetsHkd: centsText(total),
        active: active[at]!,
        newThisMonth: fresh[at]!,
      });
    }
    return rows.sort((a, b) => b.clients - a.clients || (a.channel < b.channel ? -1 : a.channel > b.channel ? 1 : 0));
  }
}
