import {
  codeFiltersSet,
  dayKey,
  groupAdmitted,
  rangeBounds,
  type CustomerCriteria,
  type GroupCodes,
  type RangeBounds,
} from './customer-filters';
import { customerNoMatches, termsHoldWords, type CustomerKeyword } from './customer-keyword';
import { customerNoKey, type CustomerNoKeyword } from '../../db/search-terms';
import {
  ACCOUNT_NOS,
  BookTexts,
  CUSTOMER_NO,
  FOLDED,
  grown,
  ID_DOC_LAST4,
  ID_DOC_MASKED,
  lowerAsSql,
  MAX_FIELD_BYTES,
  NAME_CN,
  NAME_EN,
  PHONE,
  PHONE_DIGITS,
  Postings,
  TAGS,
  utf8,
} from './book-texts';
import { MatchTiers } from './match-tier';
import type { RowOf } from '../../db/sql-rows';
import type { indexedColumns } from './book-index-store';
import type { PageWindow, SortField, SortOrder, StatRow } from './customer-search.repository';

/** What the book index keeps of one customer (ADR 0035), as the store reads it: amounts in whole cents, dates `YYYY-MM-DD`. */
export type IndexedCustomer = RowOf<typeof indexedColumns>;

export type HeldCustomer = Omit<IndexedCustomer, 'heldMarkets' | 'searchTerms'>;

interface SortOrderSlots {
  slots: Int32Array;
  length: number;
}

/** Up to this many changed customers are moved within the built sort orders; more rebuild them. */
const PATCHED_CHANGES = 64;

const MAX_MARKETS = 30;
const MAX_CODES = 255;
/** A `lastTrade` that never happened sorts after every date when descending, as `nulls last` does. */
const NO_TRADE = -1;

export function dayText(key: number): string {
  const month = Math.floor(key / 100) % 100;
  const day = key % 100;
  return `${Math.floor(key / 10_000)}-${month < 10 ? '0' : ''}${month}-${day < 10 ? '0' : ''}${day}`;
}

/** Whole cents as the decimal text PostgreSQL's numeric sum gives. */
export function centsText(cents: bigint): string {
  const sign = cents < 0n ? '-' : '';
  const whole = cents < 0n ? -cents : cents;
  return `${sign}${whole / 100n}.${String(whole % 100n).padStart(2, '0')}`;
}

/** `split_part(search_terms, ' ', 1)` (ADR 0046). */
const foldedOf = (searchTerms: string | null): string | null => {
  if (searchTerms === null) return null;
  const space = searchTerms.indexOf(' ');
  return space < 0 ? searchTerms : searchTerms.substring(0, space);
};

class Codes {
  readonly numbers = new Map<string, number>();
  readonly codes: string[] = [];
  constructor(private readonly limit: number) {}
  numberOf(code: string): number {
    let number = this.numbers.get(code);
    if (number === undefined) {
      number = this.numbers.size;
      if (number >= this.limit) throw new BookTooVaried(`more than ${this.limit} distinct codes`);
      this.numbers.set(code, number);
      this.codes.push(code);
    }
    return number;
  }
}

/** The code group of a slot no longer in the book: no query's filters admit it. */
const DEAD_GROUP = 0;
const MAX_GROUPS = 65_535;

/** The combinations of channel, status, KYC binding and markets held in a book; only added, never renumbered. */
class CodeGroups {
  private readonly numbers = new Map<number, number>();
  readonly channel: number[] = [0];
  readonly status: number[] = [0];
  readonly kyc: number[] = [0];
  readonly markets: number[] = [0];

  get count(): number {
    return this.channel.length;
  }

  numberOf(channel: number, status: number, kyc: number, markets: number): number {
    const key = (channel | (status << 8) | (kyc << 16)) * 2 ** 30 + markets;
    let number = this.numbers.get(key);
    if (number === undefined) {
      number = this.channel.length;
      if (number > MAX_GROUPS) throw new BookTooVaried(`more than ${MAX_GROUPS} combinations of codes`);
      this.numbers.set(key, number);
      this.channel.push(channel);
      this.status.push(status);
      this.kyc.push(kyc);
      this.markets.push(markets);
    }
    return number;
  }
}

export class BookTooVaried extends Error {}

/** The postings' keys: a field's letter, then the gram or the exact arm's value. */
const CN = 'c';
const EN = 'e';
const PHONE_GRAM = 'p';
const WORD = 'w';
const ACCOUNT = 'a';
const NUMBER_KEY = 'n';
const ID_TAIL = 'i';
type GramField = typeof CN | typeof EN | typeof PHONE_GRAM;
const gramLengths: Record<GramField, readonly number[]> = { c: [1, 2], e: [2, 3], p: [2, 3] };

function addGrams(add: (field: string, key: string) => void, field: GramField, text: string): void {
  const chars = SURROGATE.test(text) ? [...text] : text;
  for (const length of gramLengths[field]) {
    for (let start = 0; start + length <= chars.length; start += 1)
      add(field, typeof chars === 'string' ? chars.substring(start, start + length) : chars.slice(start, start + length).join(''));
  }
}

const SURROGATE = /[\ud800-\udfff]/;

/**
 * The keys a term is looked up by: itself when it is one gram (`exact`: its posting is exactly the rows
 * holding it), else its longest grams; undefined when the term is shorter than any gram.
 */
function lookupKeys(field: GramField, term: string): { keys: string[]; exact: boolean } | undefined {
  const chars = [...term];
  const [shortest, longest] = [gramLengths[field][0]!, gramLengths[field].at(-1)!];
  if (chars.length < shortest) return undefined;
  if (chars.length <= longest) return { keys: [field + term], exact: true };
  const keys: string[] = [];
  for (let start = 0; start + longest <= chars.length; start += 1) keys.push(field + chars.slice(start, start + longest).join(''));
  return { keys, exact: false };
}

export interface IndexedPage {
  ids: number[];
  total: number;
}

/** Past this many rows written since the build (or a sixteenth of the book), the book is read again. */
const MAX_REWRITTEN = 5_000;

/**
 * One client manager's book in memory (ADR 0035). It answers exactly what the SQL search answers for the same
 * rows (the equivalence test runs both). Everything is synchronous: a query never sees a half-applied change.
 */
export class BookIndex {
  version: string;
  private size = 0;
  private live = 0;
  /** @internal */ ids = new Float64Array(0);
  /** @internal */ group = new Uint16Array(0);
  /** @internal */ readonly groups = new CodeGroups();
  private readonly knownGroups: GroupCodes[] = [];
  private groupTallies: { generation: number; clients: Int32Array; cents: Float64Array } | undefined;
  /** @internal */ cents = new Float64Array(0);
  /** @internal */ openDay = new Int32Array(0);
  /** @internal */ lastTradeDay = new Int32Array(0);
  private riskLevel = new Int32Array(0);
  /** @internal */ readonly texts = new BookTexts();
  private readonly postings: Postings;
  /** 1: written after the postings were built, which may miss it or hold what it no longer has. */
  /** @internal */ rewritten = new Uint8Array(0);
  /** The slots written since the build, and their romanisation words. */
  private readonly rewrittenSlots = new Map<number, string | null>();
  /** @internal */ wordStamp = new Uint32Array(0);
  private readonly slotOfId = new Map<number, number>();
  private readonly channels = new Codes(MAX_CODES);
  private readonly statuses = new Codes(MAX_CODES);
  private readonly marketBits = new Codes(MAX_MARKETS);
  /** Slots in descending order of each sort (ascending walks it backwards); built when first needed. */
  private readonly orders = new Map<SortField, SortOrderSlots>();
  /** An upper bound of any customer's assets' size (a change never lowers it), for exact sums. */
  private maxAbsCents = 0;
  private stamp = new Uint32Array(0);
  private mark = 0;
  /** Apart from `stamp`, which a page reuses while the romanised matches stand. */
  private wordMark = 0;
  /** Moves with every change applied: romanised matches found before are not trusted after. */
  private generation = 0;
  /** Reused while their marks stand: the list asks a page and its stat in turn. */
  private lastRomanised: RomanisedMatches | undefined;

  constructor(version: string, rows: IndexedCustomer[]) {
    this.version = version;
    // A row's keys are added together, so a key it holds twice is its last slot.
    const keys = new Map<string, Map<string, number[]>>();
    let slot = -1;
    const add = (field: string, key: string) => {
      let ofField = keys.get(field);
      if (!ofField) keys.set(field, (ofField = new Map()));
      const slots = ofField.get(key);
      if (!slots) ofField.set(key, [slot]);
      else if (slots[slots.length - 1] !== slot) slots.push(slot);
    };
    for (const row of rows) {
      slot = this.write(row, false);
      BookIndex.addKeys(row, add);
    }
    this.postings = new Postings(keys);
  }

  get rows(): number {
    return this.live;
  }

  customer(id: number): HeldCustomer | undefined {
    const slot = this.slotOfId.get(id);
    if (slot === undefined) return undefined;
    const lastTrade = this.lastTradeDay[slot]!;
    const group = this.group[slot]!;
    const { texts, groups } = this;
    return {
      id,
      customerNo: texts.text(slot, CUSTOMER_NO)!,
      nameCn: texts.text(slot, NAME_CN)!,
      nameEn: texts.text(slot, NAME_EN)!,
      phone: texts.text(slot, PHONE),
      phoneDigits: texts.text(slot, PHONE_DIGITS),
      idDocMasked: texts.text(slot, ID_DOC_MASKED)!,
      idDocLast4: texts.text(slot, ID_DOC_LAST4)!,
      accountNos: texts.list(slot, ACCOUNT_NOS),
      channel: this.channels.codes[groups.channel[group]!]!,
      status: this.statuses.codes[groups.status[group]!]!,
      riskLevel: this.riskLevel[slot]!,
      tags: texts.list(slot, TAGS),
      kycBound: groups.kyc[group] === 1,
      assetCents: this.cents[slot]!,
      openDate: dayText(this.openDay[slot]!),
      lastTradeDate: lastTrade === NO_TRADE ? null : dayText(lastTrade),
    };
  }

  /**
   * `rows` are the current rows of the logged customers still in the book; every other logged id has left it.
   * Throws `BookTooVaried` when the book no longer fits (then the store reads it again).
   */
  apply(version: string, changedIds: number[], rows: IndexedCustomer[]): void {
    this.generation += 1;
    const patch = changedIds.length <= PATCHED_CHANGES;
    const touched = changedIds.map((id) => this.slotOfId.get(id)).filter((slot): slot is number => slot !== undefined);
    if (patch) for (const [sortBy, order] of this.orders) for (const slot of touched) this.removeFromOrder(sortBy, order, slot);
    else this.orders.clear();
    const present = new Set(rows.map((row) => row.id));
    for (const id of changedIds) {
      if (present.has(id)) continue;
      const slot = this.slotOfId.get(id);
      if (slot === undefined) continue;
      this.group[slot] = DEAD_GROUP;
      this.slotOfId.delete(id);
      this.live -= 1;
    }
    for (const row of rows) this.write(row, true);
    if (patch) {
      for (const [sortBy, order] of this.orders) {
        for (const row of rows) this.insertIntoOrder(sortBy, order, this.slotOfId.get(row.id)!);
      }
    }
    this.version = version;
    if (this.rewrittenSlots.size > Math.max(MAX_REWRITTEN, this.live / 16))
      throw new BookTooVaried('too many rows written since the build');
  }

  private sortKeys(sortBy: SortField): Float64Array | Int32Array {
    return sortBy === 'totalAssets' ? this.cents : sortBy === 'openDate' ? this.openDay : this.lastTradeDay;
  }

  /** Where `slot` goes (or is) in a descending order. */
  private orderPosition(sortBy: SortField, order: SortOrderSlots, slot: number): number {
    const keys = this.sortKeys(sortBy);
    const ids = this.ids;
    const key = keys[slot]!;
    const id = ids[slot]!;
    let low = 0;
    let high = order.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const other = order.slots[middle]!;
      const before = keys[other]! > key || (keys[other] === key && ids[other]! < id);
      if (before) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private removeFromOrder(sortBy: SortField, order: SortOrderSlots, slot: number): void {
    const at = this.orderPosition(sortBy, order, slot);
    if (order.slots[at] !== slot) throw new Error(`slot ${slot} not found in the ${sortBy} order`);
    order.slots.copyWithin(at, at + 1, order.length);
    order.length -= 1;
  }

  private insertIntoOrder(sortBy: SortField, order: SortOrderSlots, slot: number): void {
    const at = this.orderPosition(sortBy, order, slot);
    if (order.length === order.slots.length) order.slots = grown(order.slots, order.length + 1);
    order.slots.copyWithin(at + 1, at, order.length);
    order.slots[at] = slot;
    order.length += 1;
  }

  /** The romanisation words of search terms, after a space each; null: none computed. */
  private static termWords(searchTerms: string | null): string | null {
    if (searchTerms === null) return null;
    const space = searchTerms.indexOf(' ');
    return space < 0 ? '' : searchTerms.substring(space);
  }

  private static addKeys(row: IndexedCustomer, add: (field: string, key: string) => void): void {
    addGrams(add, CN, row.nameCn);
    const folded = foldedOf(row.searchTerms);
    if (folded && folded !== row.nameCn) addGrams(add, CN, folded);
    for (const word of (BookIndex.termWords(row.searchTerms) ?? '').split(' ')) if (word) add(WORD, word);
    addGrams(add, EN, lowerAsSql(row.nameEn));
    if (row.phoneDigits) addGrams(add, PHONE_GRAM, row.phoneDigits);
    for (const accountNo of row.accountNos) add(ACCOUNT, accountNo);
    add(ID_TAIL, row.idDocLast4);
    const noKey = customerNoKey(row.customerNo);
    if (noKey !== null) add(NUMBER_KEY, noKey);
  }

  private write(row: IndexedCustomer, rewritten: boolean): number {
    let slot = this.slotOfId.get(row.id);
    if (slot === undefined) {
      slot = this.size;
      this.size += 1;
      this.live += 1;
      this.slotOfId.set(row.id, slot);
      this.ids = grown(this.ids, this.size);
      this.group = grown(this.group, this.size);
      this.cents = grown(this.cents, this.size);
      this.openDay = grown(this.openDay, this.size);
      this.lastTradeDay = grown(this.lastTradeDay, this.size);
      this.riskLevel = grown(this.riskLevel, this.size);
      this.stamp = grown(this.stamp, this.size);
      this.wordStamp = grown(this.wordStamp, this.size);
      this.rewritten = grown(this.rewritten, this.size);
    }
    if (rewritten) {
      this.rewritten[slot] = 1;
      this.rewrittenSlots.set(slot, BookIndex.termWords(row.searchTerms));
    }
    const openDay = dayKey(row.openDate);
    if (openDay === undefined) throw new Error(`customer ${row.id}: open date ${row.openDate} is not a day`);
    const written = this.texts.write(slot, [
      row.nameCn,
      foldedOf(row.searchTerms),
      row.nameEn,
      row.phoneDigits,
      row.customerNo,
      row.idDocLast4,
      row.accountNos.length ? row.accountNos.join('\0') : null,
      row.phone,
      row.idDocMasked,
      row.tags.length ? row.tags.join('\0') : null,
    ]);
    if (!written) throw new BookTooVaried(`customer ${row.id}: a text longer than ${MAX_FIELD_BYTES} bytes`);
    this.ids[slot] = row.id;
    let bits = 0;
    for (const market of row.heldMarkets) bits |= 1 << this.marketBits.numberOf(market);
    this.group[slot] = this.groups.numberOf(
      this.channels.numberOf(row.channel),
      this.statuses.numberOf(row.status),
      row.kycBound ? 1 : 0,
      bits,
    );
    this.cents[slot] = row.assetCents;
    this.maxAbsCents = Math.max(this.maxAbsCents, Math.abs(row.assetCents));
    this.openDay[slot] = openDay;
    this.lastTradeDay[slot] = row.lastTradeDate === null ? NO_TRADE : (dayKey(row.lastTradeDate) ?? NO_TRADE);
    this.riskLevel[slot] = row.riskLevel;
    return slot;
  }

  /** Clients and cents per code group, counted once per change of the book (ADR 0035 history: code groups). */
  private tallies(): { clients: Int32Array; cents: Float64Array } {
    const known = this.groupTallies;
    if (known && known.generation === this.generation && known.clients.length === this.groups.count) return known;
    const clients = new Int32Array(this.groups.count);
    const cents = new Float64Array(this.groups.count);
    const { group } = this;
    const amounts = this.cents;
    for (let slot = 0; slot < this.size; slot += 1) {
      const at = group[slot]!;
      clients[at]! += 1;
      cents[at]! += amounts[slot]!;
    }
    this.groupTallies = { generation: this.generation, clients, cents };
    return this.groupTallies;
  }

  /** The slots of a sort in descending order (key descending, then id ascending). */
  private order(sortBy: SortField): Int32Array {
    let order = this.orders.get(sortBy);
    if (!order) {
      const keys = this.sortKeys(sortBy);
      const slots: number[] = [];
      for (let slot = 0; slot < this.size; slot += 1) if (this.group[slot] !== DEAD_GROUP) slots.push(slot);
      const ids = this.ids;
      slots.sort((a, b) => keys[b]! - keys[a]! || ids[a]! - ids[b]!);
      order = { slots: Int32Array.from(slots), length: slots.length };
      this.orders.set(sortBy, order);
    }
    return order.slots.subarray(0, order.length);
  }

  private groupCodes(): GroupCodes[] {
    const { groups, knownGroups } = this;
    for (let group = knownGroups.length; group < groups.count; group += 1) {
      const bits = groups.markets[group]!;
      knownGroups.push({
        channel: this.channels.codes[groups.channel[group]!]!,
        status: this.statuses.codes[groups.status[group]!]!,
        kycBound: groups.kyc[group] === 1,
        markets: this.marketBits.codes.filter((_, bit) => (bits & (1 << bit)) !== 0),
      });
    }
    return knownGroups;
  }

  /** The test a row must pass; undefined when the criteria hold a value only SQL decides exactly. */
  private rowTest(criteria: CustomerCriteria, romanised: RomanisedMatches | undefined): RowTest | undefined {
    const ranges = rangeBounds(criteria);
    if (!ranges) return undefined;
    const admitted = new Uint8Array(this.groups.count);
    const codesFiltered = codeFiltersSet(criteria);
    const codes = this.groupCodes();
    for (let group = DEAD_GROUP + 1; group < admitted.length; group += 1) {
      if (!codesFiltered || groupAdmitted(criteria, codes[group]!)) admitted[group] = 1;
    }
    const keyword = criteria.keyword;
    return new RowTest(this, {
      groups: admitted,
      codesFiltered,
      assetRange: ranges.minCents !== -Infinity || ranges.maxCents !== Infinity,
      ...ranges,
      dayRange: ranges.fromDay !== -Infinity || ranges.toDay !== Infinity,
      keyword: keyword !== undefined,
      chineseText: keyword?.chineseName ? utf8(keyword.text) : null,
      foldedText: keyword?.chineseName?.folded ? utf8(keyword.chineseName.folded) : null,
      romanisedMark: romanised?.mark ?? 0,
      customerNo: keyword?.customerNo ?? null,
      customerNoKey: keyword?.customerNo ? utf8(keyword.customerNo.key) : null,
      englishText: keyword?.englishName ? lowerAsSql(keyword.text) : null,
      englishBytes: keyword?.englishName ? utf8(lowerAsSql(keyword.text)) : null,
      phoneDigits: keyword?.phone ? utf8(keyword.phone.digits) : null,
      accountNo: keyword?.accountNo ? utf8(keyword.accountNo) : null,
      idDocTail: keyword?.idDocTail ? utf8(keyword.idDocTail) : null,
    });
  }

  /** Undefined when an arm has no gram to look up (one letter or digit): every row is then a candidate. */
  private keywordCandidates(keyword: CustomerKeyword, romanised: RomanisedMatches | undefined): Candidates | undefined {
    const lists: ArrayLike<number>[] = [];
    const heldLists: ArrayLike<number>[] = [];
    const byGrams = (field: GramField, term: string, exact = true): boolean => {
      const lookup = lookupKeys(field, term);
      if (!lookup) return false;
      // The rarest gram's posting holds every row holding the term.
      let best: Int32Array | undefined;
      for (const key of lookup.keys) {
        const posting = this.postings.of(utf8(key));
        if (!best || posting.length < best.length) best = posting;
        if (posting.length === 0) break;
      }
      (exact && lookup.exact ? heldLists : lists).push(best!);
      return true;
    };
    // A name's postings hold the grams of the name and its folded form: a posting is exact only for a term that is
    // its own folded form.
    const chinese = keyword.chineseName;
    if (chinese && !byGrams(CN, keyword.text, chinese.folded === keyword.text)) return undefined;
    if (chinese?.folded && chinese.folded !== keyword.text && !byGrams(CN, chinese.folded, false)) return undefined;
    if (romanised) heldLists.push(romanised.slots);
    if (keyword.customerNo) lists.push(this.postings.of(utf8(NUMBER_KEY + keyword.customerNo.key)));
    if (keyword.englishName && !byGrams(EN, lowerAsSql(keyword.text))) return undefined;
    if (keyword.phone && !byGrams(PHONE_GRAM, keyword.phone.digits)) return undefined;
    if (keyword.accountNo) lists.push(this.postings.of(utf8(ACCOUNT + keyword.accountNo)));
    if (keyword.idDocTail) lists.push(this.postings.of(utf8(ID_TAIL + keyword.idDocTail)));
    lists.push([...this.rewrittenSlots.keys()]);
    // Distinct: a row written again may be in a posting and among the rows written since.
    const mark = this.nextMark();
    const stamp = this.stamp;
    const slots: number[] = [];
    const add = (list: ArrayLike<number>) => {
      for (let index = 0; index < list.length; index += 1) {
        const slot = list[index]!;
        if (stamp[slot] !== mark) {
          stamp[slot] = mark;
          slots.push(slot);
        }
      }
    };
    for (const list of heldLists) add(list);
    const held = slots.length;
    for (const list of lists) add(list);
    return { slots, held };
  }

  private nextMark(): number {
    return (this.mark = advancedMark(this.mark, this.stamp));
  }

  private matcher(criteria: CustomerCriteria): { test: RowTest; candidates: Candidates | undefined } | undefined {
    const keyword = criteria.keyword;
    const romanised = keyword?.romanised ? this.romanisedMatches(keyword.romanised.words, keyword.romanised.wordStarts) : undefined;
    const test = this.rowTest(criteria, romanised);
    if (!test) return undefined;
    return { test, candidates: keyword ? this.keywordCandidates(keyword, romanised) : undefined };
  }

  private nextWordMark(): number {
    return (this.wordMark = advancedMark(this.wordMark, this.wordStamp));
  }

  /**
   * The slots whose terms hold every typed word at a word's start (`termsHoldWords`), marked in `wordStamp`:
   * the words' postings intersected rarest first, reading no text but that of rows written since the build.
   */
  private romanisedMatches(words: readonly string[], wordStarts: readonly string[]): RomanisedMatches {
    const key = words.join(' ');
    const last = this.lastRomanised;
    if (last && last.key === key && last.generation === this.generation && last.mark === this.wordMark) return last;
    const perWord = words.map((word) => {
      const postings = this.postings.beginningWith(utf8(WORD + word));
      let size = 0;
      for (const posting of postings) size += posting.length;
      return { postings, size };
    });
    perWord.sort((a, b) => a.size - b.size);
    const stamp = this.wordStamp;
    const markAll = (postings: Int32Array[], mark: number, each: ((slot: number) => void) | undefined) => {
      for (const list of postings) {
        for (let index = 0; index < list.length; index += 1) {
          const slot = list[index]!;
          if (stamp[slot] === mark) continue;
          stamp[slot] = mark;
          each?.(slot);
        }
      }
    };
    let slots: number[] = [];
    markAll(perWord[0]!.postings, this.nextWordMark(), (slot) => slots.push(slot));
    for (const { postings } of perWord.slice(1)) {
      if (slots.length === 0) break;
      const mark = this.nextWordMark();
      markAll(postings, mark, undefined);
      slots = slots.filter((slot) => stamp[slot] === mark);
    }
    const mark = this.nextWordMark();
    let matches: number[] = [];
    const confirmed = (slot: number, terms: string | null) => terms !== null && termsHoldWords(terms, wordStarts);
    for (const slot of slots) {
      if (this.rewritten[slot] === 1 && !confirmed(slot, this.rewrittenSlots.get(slot)!)) continue;
      stamp[slot] = mark;
      matches.push(slot);
    }
    for (const [slot, terms] of this.rewrittenSlots) {
      if (stamp[slot] !== mark && this.group[slot] !== DEAD_GROUP && confirmed(slot, terms)) {
        stamp[slot] = mark;
        matches.push(slot);
      }
    }
    // In slot order, so the page and the stat read the columns in sequence.
    if (matches.length * 32 > this.size) {
      matches = [];
      for (let slot = 0; slot < this.size; slot += 1) if (stamp[slot] === mark) matches.push(slot);
    } else matches.sort((a, b) => a - b);
    this.lastRomanised = { key, generation: this.generation, mark, slots: matches };
    return this.lastRomanised;
  }

  page(criteria: CustomerCriteria, sortBy: SortField, sortOrder: SortOrder, window: PageWindow): IndexedPage | undefined {
    const matcher = this.matcher(criteria);
    if (!matcher) return undefined;
    const { test, candidates } = matcher;
    const start = (window.pageNum - 1) * window.pageSize;
    const end = start + window.pageSize;
    if (criteria.keyword) return this.rankedPage(criteria.keyword, test, candidates, sortBy, sortOrder, start, end);
    if (test.admitsEveryRow()) {
      const order = this.order(sortBy);
      const last = order.length - 1;
      const ids: number[] = [];
      for (let step = start; step < Math.min(end, order.length); step += 1)
        ids.push(this.ids[order[sortOrder === 'desc' ? step : last - step]!]!);
      return { ids, total: order.length };
    }
    if (test.decidedByGroup()) {
      const admitted = test.admittedGroups;
      const { clients } = this.tallies();
      let total = 0;
      for (let group = DEAD_GROUP + 1; group < admitted.length; group += 1) if (admitted[group] === 1) total += clients[group]!;
      return { ids: this.walkOrder(sortBy, sortOrder, 0, start, end, total, admitted), total };
    }
    const range = this.narrowRange(test);
    if (range && range.sortBy === sortBy) {
      const ids: number[] = [];
      let total = 0;
      for (let step = 0; step < range.to - range.from; step += 1) {
        const slot = range.order[sortOrder === 'desc' ? range.from + step : range.to - 1 - step]!;
        if (!test.passes(slot)) continue;
        if (total >= start && total < end) ids.push(this.ids[slot]!);
        total += 1;
      }
      return { ids, total };
    }
    // Mark and count the matches in slot order, then walk the sort's order reading only the marks.
    const mark = this.nextMark();
    const stamp = this.stamp;
    let total = 0;
    const markIfPasses = (slot: number) => {
      if (test.passes(slot)) {
        stamp[slot] = mark;
        total += 1;
      }
    };
    if (range) for (let at = range.from; at < range.to; at += 1) markIfPasses(range.order[at]!);
    else for (let slot = 0; slot < this.size; slot += 1) markIfPasses(slot);
    return { ids: this.walkOrder(sortBy, sortOrder, mark, start, end, total), total };
  }

  /** The narrower of the asset and open-date ranges as a stretch of its sort's order, when it is narrow enough. */
  private narrowRange(test: RowTest): { sortBy: SortField; order: Int32Array; from: number; to: number } | undefined {
    let best: { sortBy: SortField; order: Int32Array; from: number; to: number } | undefined;
    for (const sortBy of ['totalAssets', 'openDate'] as const) {
      const bounds = test.boundsOn(sortBy);
      if (!bounds) continue;
      const order = this.order(sortBy);
      const keys = this.sortKeys(sortBy);
      const from = firstAtOrBelow(order, keys, bounds[1]);
      const to = firstAtOrBelow(order, keys, bounds[0], true);
      if (!best || to - from < best.to - best.from) best = { sortBy, order, from, to };
    }
    return best && best.to - best.from <= this.live * RANGE_READ_SHARE ? best : undefined;
  }

  /**
   * A keyword's page, ranked by tier (ADR 0046 §5). With many matches (`wong` in a large book) only the rows the
   * sort's walk reaches have their tier decided; few are cheaper to rank all and sort (`walkIsCheaper`).
   */
  private rankedPage(
    keyword: CustomerKeyword,
    test: RowTest,
    candidates: Candidates | undefined,
    sortBy: SortField,
    sortOrder: SortOrder,
    start: number,
    end: number,
  ): IndexedPage {
    const tiers = new MatchTiers(keyword, this.texts, this.wordStamp, test.romanisedMark);
    // Marks, not an array per request: the garbage would cost more than the marking.
    const mark = this.nextMark();
    const stamp = this.stamp;
    const exact: number[] = [];
    const wholePhone = keyword.phone;
    let total = 0;
    const count = (slot: number, held: boolean) => {
      if (stamp[slot] === mark || !(held ? test.passesHeld(slot) : test.passes(slot))) return;
      stamp[slot] = mark;
      total += 1;
      if (wholePhone !== null && tiers.isWholePhone(slot)) exact.push(slot);
    };
    if (candidates) {
      const { slots, held } = candidates;
      for (let at = 0; at < slots.length; at += 1) count(slots[at]!, at < held);
    } else for (let slot = 0; slot < this.size; slot += 1) count(slot, false);
    // The rest of the exact tier: the number arms' own slots, confirmed (a slot stays in a posting after its row changes).
    const confirm = (slots: ArrayLike<number>) => {
      for (let at = 0; at < slots.length; at += 1) {
        const slot = slots[at]!;
        if (stamp[slot] === mark && !exact.includes(slot) && tiers.isExact(slot)) exact.push(slot);
      }
    };
    if (keyword.customerNo) confirm(this.postings.of(utf8(NUMBER_KEY + keyword.customerNo.key)));
    if (keyword.accountNo) confirm(this.postings.of(utf8(ACCOUNT + keyword.accountNo)));
    if (keyword.idDocTail) confirm(this.postings.of(utf8(ID_TAIL + keyword.idDocTail)));
    if (keyword.customerNo || keyword.accountNo || keyword.idDocTail) confirm([...this.rewrittenSlots.keys()]);
    const exactMark = this.nextMark();
    for (const slot of exact) stamp[slot] = exactMark;
    if (!walkIsCheaper(total, end, this.live)) {
      const byTier: [number[], number[], number[]] = [exact, [], []];
      const place = (slot: number) => {
        if (stamp[slot] === mark) byTier[tiers.isNamePrefix(slot) ? 1 : 2].push(slot);
      };
      if (candidates) for (const slot of candidates.slots) place(slot);
      else for (let slot = 0; slot < this.size; slot += 1) place(slot);
      const ids: number[] = [];
      let before = 0;
      for (const tier of byTier) {
        const from = Math.max(start - before, 0);
        const to = Math.min(end - before, tier.length);
        if (from < to) ids.push(...this.orderedSlice(tier, sortBy, sortOrder, from, to));
        before += tier.length;
      }
      return { ids, total };
    }
    // One walk: name-prefix rows until the page is full, the rest kept in case the page reaches past them.
    const prefixWanted = end - exact.length;
    const prefixed: number[] = [];
    const rest: number[] = [];
    if (prefixWanted > 0) {
      const order = this.order(sortBy);
      const last = order.length - 1;
      for (let step = 0; step <= last && prefixed.length < prefixWanted; step += 1) {
        const slot = order[sortOrder === 'desc' ? step : last - step]!;
        if (stamp[slot] !== mark) continue;
        if (tiers.isNamePrefix(slot)) prefixed.push(this.ids[slot]!);
        else if (rest.length < prefixWanted) rest.push(this.ids[slot]!);
      }
    }
    // Sorted after the walk, whose marks it must not disturb.
    const ids: number[] = exact.length > 0 ? this.orderedSlice(exact, sortBy, sortOrder, 0, exact.length) : [];
    // `rest` is complete up to the page's end only when the walk ended.
    const ranked = prefixed.length < prefixWanted ? [...ids, ...prefixed, ...rest] : [...ids, ...prefixed];
    return { ids: ranked.slice(start, end), total };
  }

  /** The ids of `matches[from … to)` in the sort's order, by sorting or by walking the order (`walkIsCheaper`). */
  private orderedSlice(matches: number[], sortBy: SortField, sortOrder: SortOrder, from: number, to: number): number[] {
    const ids = this.ids;
    if (!walkIsCheaper(matches.length, to, this.live)) {
      const keys = this.sortKeys(sortBy);
      const descending = (a: number, b: number) => keys[b]! - keys[a]! || ids[a]! - ids[b]!;
      matches.sort(sortOrder === 'desc' ? descending : (a, b) => descending(b, a));
      return matches.slice(from, to).map((slot) => ids[slot]!);
    }
    const mark = this.nextMark();
    for (const slot of matches) this.stamp[slot] = mark;
    return this.walkOrder(sortBy, sortOrder, mark, from, to, matches.length);
  }

  /** The ids from `start` to `end` in the sort's order of the slots marked `mark` (or whose group `admitted` admits). */
  private walkOrder(
    sortBy: SortField,
    sortOrder: SortOrder,
    mark: number,
    start: number,
    end: number,
    total: number,
    admitted?: Uint8Array,
  ): number[] {
    const pageIds: number[] = [];
    if (start >= total) return pageIds;
    const order = this.order(sortBy);
    const { ids, stamp, group } = this;
    const wanted = Math.min(end, total);
    let seen = 0;
    const last = order.length - 1;
    for (let step = 0; step <= last && seen < wanted; step += 1) {
      const slot = order[sortOrder === 'desc' ? step : last - step]!;
      if (admitted ? admitted[group[slot]!] !== 1 : stamp[slot] !== mark) continue;
      if (seen >= start) pageIds.push(ids[slot]!);
      seen += 1;
    }
    return pageIds;
  }

  /** One channel's cents summed in BigInt, past what a double holds exactly. */
  private exactSum(test: RowTest, candidates: Candidates | undefined, at: number): bigint {
    let total = 0n;
    const add = (slot: number) => {
      if (this.groups.channel[this.group[slot]!] === at && test.passes(slot)) total += BigInt(this.cents[slot]!);
    };
    if (candidates) for (const slot of candidates.slots) add(slot);
    else for (let slot = 0; slot < this.size; slot += 1) add(slot);
    return total;
  }

  /** The header stat per channel, ordered as SQL orders it (clients descending, then channel); undefined: ask SQL. */
  stat(criteria: CustomerCriteria, monthStart: string): StatRow[] | undefined {
    const matcher = this.matcher(criteria);
    const monthDay = dayKey(monthStart);
    if (!matcher || monthDay === undefined) return undefined;
    const { test, candidates } = matcher;
    const channelCount = this.channels.numbers.size;
    // Two banks of tallies (even and odd slots) and branch-free yes/no counts (ADR 0051).
    const banks = channelCount * 2;
    const clients = new Int32Array(banks);
    const sums = new Float64Array(banks);
    const active = new Int32Array(banks);
    const fresh = new Int32Array(banks);
    const activeStatus = this.statuses.numbers.get('active') ?? -1;
    const { group, cents, openDay, groups } = this;
    const channel = Int32Array.from(groups.channel);
    const activeGroup = Int32Array.from(groups.status, (status) => +(status === activeStatus));
    const tally = (slot: number) => {
      const at = channel[group[slot]!]! + (slot & 1) * channelCount;
      clients[at]! += 1;
      sums[at]! += cents[slot]!;
      active[at]! += activeGroup[group[slot]!]!;
      fresh[at]! += +(openDay[slot]! >= monthDay);
    };
    if (candidates) {
      const { slots, held } = candidates;
      for (let at = 0; at < slots.length; at += 1) {
        const slot = slots[at]!;
        if (at < held ? test.passesHeld(slot) : test.passes(slot)) tally(slot);
      }
    } else if (test.admitsEveryRow()) {
      const size = this.size;
      for (let slot = 0; slot < size; slot += 1) if (group[slot] !== DEAD_GROUP) tally(slot);
    } else if (test.decidedByGroup()) {
      // "New this month" from the head of the open-date order, read while it is this month's.
      const admitted = test.admittedGroups;
      const tallies = this.tallies();
      for (let group = DEAD_GROUP + 1; group < admitted.length; group += 1) {
        const inGroup = tallies.clients[group]!;
        if (admitted[group] !== 1 || inGroup === 0) continue;
        const at = groups.channel[group]!;
        clients[at]! += inGroup;
        sums[at]! += tallies.cents[group]!;
        if (groups.status[group] === activeStatus) active[at]! += inGroup;
      }
      const byOpenDay = this.order('openDate');
      for (let step = 0; step < byOpenDay.length; step += 1) {
        const slot = byOpenDay[step]!;
        if (openDay[slot]! < monthDay) break;
        if (admitted[group[slot]!] === 1) fresh[channel[group[slot]!]!]! += 1;
      }
    } else {
      const range = this.narrowRange(test);
      if (range) {
        for (let at = range.from; at < range.to; at += 1) {
          const slot = range.order[at]!;
          if (test.passes(slot)) tally(slot);
        }
      } else {
        const size = this.size;
        for (let slot = 0; slot < size; slot += 1) if (test.passes(slot)) tally(slot);
      }
    }
    for (let at = 0; at < channelCount; at += 1) {
      const odd = at + channelCount;
      clients[at]! += clients[odd]!;
      sums[at]! += sums[odd]!;
      active[at]! += active[odd]!;
      fresh[at]! += fresh[odd]!;
    }
    // Whole cents add exactly in a double while no partial sum can pass 2^53; past that, in BigInt.
    const exactInDouble = (at: number) => clients[at]! * this.maxAbsCents < Number.MAX_SAFE_INTEGER;
    const rows: StatRow[] = [];
    for (const [code, at] of this.channels.numbers) {
      if (clients[at] === 0) continue;
      const total = exactInDouble(at) ? BigInt(sums[at]!) : this.exactSum(test, candidates, at);
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

/** On wrapping past 2³²−1 every stamp is cleared. */
function advancedMark(mark: number, stamps: Uint32Array): number {
  const next = (mark + 1) >>> 0;
  if (next !== 0) return next;
  stamps.fill(0);
  return 1;
}

/** Up to this share of a book, a range is read at its order's positions; wider is cheaper read in sequence. */
const RANGE_READ_SHARE = 0.4;

/** In an order of descending `keys`, the first position whose key is at or below `bound` (`strictly`: below). */
function firstAtOrBelow(order: Int32Array, keys: Float64Array | Int32Array, bound: number, strictly = false): number {
  let low = 0;
  let high = order.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const key = keys[order[middle]!]!;
    if (strictly ? key < bound : key <= bound) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** Whether marking the matches and walking the order reaches `end` in fewer steps than sorting the matches. */
export function walkIsCheaper(matches: number, end: number, live: number): boolean {
  if (matches <= 1) return false;
  const walkSteps = Math.min(live, ((Math.min(end, matches) + 1) / matches) * live);
  const sortSteps = 4 * matches * Math.log2(matches);
  return walkSteps < sortSteps;
}

/** The first `held` hold the keyword unless their row was written again since the build. */
interface Candidates {
  slots: number[];
  held: number;
}

interface RomanisedMatches {
  key: string;
  generation: number;
  mark: number;
  slots: number[];
}

interface RowConditions extends RangeBounds {
  /** Per code group: 1 when the filters admit it (never `DEAD_GROUP`). */
  groups: Uint8Array;
  codesFiltered: boolean;
  assetRange: boolean;
  dayRange: boolean;
  keyword: boolean;
  chineseText: Uint8Array | null;
  foldedText: Uint8Array | null;
  /** The romanised matches carry this mark in `wordStamp`; 0: no such arm. */
  romanisedMark: number;
  customerNo: CustomerNoKeyword | null;
  customerNoKey: Uint8Array | null;
  englishText: string | null;
  englishBytes: Uint8Array | null;
  phoneDigits: Uint8Array | null;
  accountNo: Uint8Array | null;
  idDocTail: Uint8Array | null;
}

/** One method of one class, so V8 inlines `passes` into the loops; a closure per query was called instead. */
class RowTest {
  constructor(
    private readonly book: BookIndex,
    private readonly conditions: RowConditions,
  ) {}

  admitsEveryRow(): boolean {
    const when = this.conditions;
    return !when.keyword && !when.codesFiltered && !when.assetRange && !when.dayRange;
  }

  decidedByGroup(): boolean {
    const when = this.conditions;
    return !when.keyword && !when.assetRange && !when.dayRange;
  }

  boundsOn(sortBy: 'totalAssets' | 'openDate'): [number, number] | undefined {
    const when = this.conditions;
    if (sortBy === 'totalAssets') return when.assetRange ? [when.minCents, when.maxCents] : undefined;
    return when.dayRange ? [when.fromDay, when.toDay] : undefined;
  }

  get admittedGroups(): Uint8Array {
    return this.conditions.groups;
  }

  get romanisedMark(): number {
    return this.conditions.romanisedMark;
  }

  passes(slot: number): boolean {
    return this.passesFilters(slot) && (!this.conditions.keyword || this.keywordMatches(slot));
  }

  /** For a candidate whose posting holds the keyword: the filters only, unless its row was written again. */
  passesHeld(slot: number): boolean {
    return this.book.rewritten[slot] === 1 ? this.passes(slot) : this.passesFilters(slot);
  }

  private passesFilters(slot: number): boolean {
    const book = this.book;
    const when = this.conditions;
    // Also refuses a slot no longer in the book.
    if (when.groups[book.group[slot]!] !== 1) return false;
    if (when.assetRange) {
      const cents = book.cents[slot]!;
      if (cents < when.minCents || cents > when.maxCents) return false;
    }
    if (when.dayRange) {
      const openDay = book.openDay[slot]!;
      if (openDay < when.fromDay || openDay > when.toDay) return false;
    }
    return true;
  }

  private keywordMatches(slot: number): boolean {
    const texts = this.book.texts;
    const when = this.conditions;
    if (when.romanisedMark !== 0 && this.book.wordStamp[slot] === when.romanisedMark) return true;
    if (when.chineseText !== null && texts.holds(slot, NAME_CN, when.chineseText)) return true;
    if (when.foldedText !== null && texts.holds(slot, FOLDED, when.foldedText)) return true;
    if (when.englishBytes !== null && texts.nameEnHolds(slot, when.englishBytes, when.englishText!, false)) return true;
    if (when.phoneDigits !== null && texts.holds(slot, PHONE_DIGITS, when.phoneDigits)) return true;
    if (when.customerNoKey !== null && texts.endsWith(slot, CUSTOMER_NO, when.customerNoKey)) {
      if (customerNoMatches(when.customerNo!, texts.text(slot, CUSTOMER_NO)!)) return true;
    }
    if (when.accountNo !== null && texts.holdsEntry(slot, ACCOUNT_NOS, when.accountNo)) return true;
    return when.idDocTail !== null && texts.equals(slot, ID_DOC_LAST4, when.idDocTail);
  }
}
