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
import type { PageWindow, SortField, SortOrder, StatRow } from './customer-search.repository';

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
  /** `customer.search_terms` (ADR 0046): the folded name, a space, the romanisation words; null until computed. */
  searchTerms: string | null;
  phoneDigits: string | null;
  idDocLast4: string;
  assetCents: number;
  openDate: string;
  lastTradeDate: string | null;
  heldMarkets: string[];
  kycBound: boolean;
  /** In the order the client list shows them (by account id). */
  accountNos: string[];
  /**
   * What a client-list row shows besides the fields above, so an indexed search answers its page from
   * memory and reads only the book's version from the database (ADR 0035's addendum).
   */
  customerNo: string;
  phone: string | null;
  idDocMasked: string;
  riskLevel: number;
  tags: string[];
}

/** A customer as the index holds it, for a page's rows: every field but the markets held and the search terms. */
export type HeldCustomer = Omit<IndexedCustomer, 'heldMarkets' | 'searchTerms'>;

/** A sort's slots in descending order: `slots[0 … length)`, with room to grow. */
interface SortOrderSlots {
  slots: Int32Array;
  length: number;
}

/** Up to this many changed customers are moved within the built sort orders; more rebuild them. */
const PATCHED_CHANGES = 64;

/** Markets held are a bit set: the vocabulary of one book holds far fewer than this. */
const MAX_MARKETS = 30;
/** Statuses and channels are small codes. */
const MAX_CODES = 255;
/** A `lastTrade` that never happened sorts after every date when descending, as `nulls last` does. */
const NO_TRADE = -1;

/** The number yyyymmdd as `YYYY-MM-DD` (dayKey's inverse). */
export function dayText(key: number): string {
  const month = Math.floor(key / 100) % 100;
  const day = key % 100;
  return `${Math.floor(key / 10_000)}-${month < 10 ? '0' : ''}${month}-${day < 10 ? '0' : ''}${day}`;
}

/** Whole cents as the exact decimal text PostgreSQL's numeric sum would give (two places). */
export function centsText(cents: bigint): string {
  const sign = cents < 0n ? '-' : '';
  const whole = cents < 0n ? -cents : cents;
  return `${sign}${whole / 100n}.${String(whole % 100n).padStart(2, '0')}`;
}

/** `split_part(search_terms, ' ', 1)`, as SQL reads it (ADR 0046); null until the terms are computed. */
const foldedOf = (searchTerms: string | null): string | null => {
  if (searchTerms === null) return null;
  const space = searchTerms.indexOf(' ');
  return space < 0 ? searchTerms : searchTerms.substring(0, space);
};

/** A small vocabulary: code ↔ number. */
class Codes {
  readonly numbers = new Map<string, number>();
  /** number → code */
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
/** Code groups fit a Uint16Array; a book with more combinations of codes is searched in SQL. */
const MAX_GROUPS = 65_535;

/**
 * The combinations of channel, status, KYC binding and markets held that a book's customers have: a few
 * hundred at most in practice (channels × statuses × 2 × the combinations of markets held). Group 0 is
 * `DEAD_GROUP`. Groups are only added, never renumbered.
 */
class CodeGroups {
  private readonly numbers = new Map<number, number>();
  /** Per group: its channel, status and KYC binding codes and its markets' bits. */
  readonly channel: number[] = [0];
  readonly status: number[] = [0];
  readonly kyc: number[] = [0];
  readonly markets: number[] = [0];

  get count(): number {
    return this.channel.length;
  }

  numberOf(channel: number, status: number, kyc: number, markets: number): number {
    // Channel and status are below 256, KYC 0 or 1, markets 30 bits: exact in a double.
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

/** A book whose codes or texts do not fit the index's compact columns: it is searched in SQL instead. */
export class BookTooVaried extends Error {}

/**
 * The postings' keys: a field's letter, then the gram. Chinese names (and their folded form) by their one and
 * two characters, English names (lower-cased as ILIKE folds them) and phones by two and three, the
 * romanisation words whole (`romanisedMatches`), and the exact arms' values.
 */
const CN = 'c';
const EN = 'e';
const PHONE_GRAM = 'p';
const WORD = 'w';
const ACCOUNT = 'a';
const NUMBER_KEY = 'n';
const ID_TAIL = 'i';
type GramField = typeof CN | typeof EN | typeof PHONE_GRAM;
const gramLengths: Record<GramField, readonly number[]> = { c: [1, 2], e: [2, 3], p: [2, 3] };

/** The grams of a text, as keys (`field` then the gram). */
function addGrams(add: (field: string, key: string) => void, field: GramField, text: string): void {
  const chars = SURROGATE.test(text) ? [...text] : text;
  for (const length of gramLengths[field]) {
    for (let start = 0; start + length <= chars.length; start += 1)
      add(field, typeof chars === 'string' ? chars.substring(start, start + length) : chars.slice(start, start + length).join(''));
  }
}

/** A character outside the Basic Multilingual Plane (rare CJK, emoji) takes two code units. */
const SURROGATE = /[\ud800-\udfff]/;

/**
 * The keys a term can be looked up by: itself when it is one gram (`exact`: its posting is then exactly the
 * rows holding it), else its longest grams (each posting holds every row holding the term); undefined when the
 * term is shorter than any gram.
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

/** A page of ids in the list's order, and how many customers match in all. */
export interface IndexedPage {
  ids: number[];
  total: number;
}

/**
 * Rows written since the postings were built are tested on every keyword search: past this many (or a
 * sixteenth of the book, if more), the book is read again and the postings rebuilt.
 */
const MAX_REWRITTEN = 5_000;

/**
 * One client manager's book in memory: compact columns per row slot, the texts and keyword postings packed in
 * `BookTexts` and `Postings`, and the book's order under each sort. It answers exactly what the SQL search
 * answers for the same rows (the filters and arms are defined side by side in `customer-filters.ts` and
 * `keyword-condition.ts`; the equivalence test runs both on random criteria) and is brought up to date by
 * `apply` from the book's change log (ADR 0035).
 *
 * Everything here is synchronous: a query never sees a half-applied change.
 */
export class BookIndex {
  /** The book version the rows are those of (`staff_book_version`, as text). */
  version: string;
  private size = 0;
  private live = 0;
  /** @internal */ ids = new Float64Array(0);
  /** The slot's code group (`CodeGroups`), `DEAD_GROUP` for a slot no longer in the book. */
  /** @internal */ group = new Uint16Array(0);
  /** @internal */ readonly groups = new CodeGroups();
  private readonly knownGroups: GroupCodes[] = [];
  /** The groups' tallies, for `generation`. */
  private groupTallies: { generation: number; clients: Int32Array; cents: Float64Array } | undefined;
  /** @internal */ cents = new Float64Array(0);
  /** @internal */ openDay = new Int32Array(0);
  /** @internal */ lastTradeDay = new Int32Array(0);
  private riskLevel = new Int32Array(0);
  /** @internal */ readonly texts = new BookTexts();
  /** The keys of every row as built (`CN`, `EN`, …); rows written since are in `rewrittenSlots` instead. */
  private readonly postings: Postings;
  /** 1: the slot was written after the postings were built, so they may miss it or hold what it no longer has. */
  /** @internal */ rewritten = new Uint8Array(0);
  /** The slots written since the build, and their romanisation words (null: none computed). */
  private readonly rewrittenSlots = new Map<number, string | null>();
  /** @internal */ wordStamp = new Uint32Array(0);
  private readonly slotOfId = new Map<number, number>();
  private readonly channels = new Codes(MAX_CODES);
  private readonly statuses = new Codes(MAX_CODES);
  private readonly marketBits = new Codes(MAX_MARKETS);
  /** Slots in descending order of each sort (ascending is the same walked backwards); built when first needed. */
  private readonly orders = new Map<SortField, SortOrderSlots>();
  /** No customer's assets were ever larger in size (an upper bound: a change never lowers it). */
  private maxAbsCents = 0;
  /** Per-query marks: `stamp[slot] === mark` means "a candidate of this query". */
  private stamp = new Uint32Array(0);
  private mark = 0;
  /** The mark of the last romanised keyword's matches in `wordStamp` (apart from `stamp`, which a page reuses). */
  private wordMark = 0;
  /** Moves with every change applied: a romanised keyword's matches found before are not trusted after. */
  private generation = 0;
  /** The last romanised keyword's matches, reused while their marks stand (the list asks a page and its stat in turn). */
  private lastRomanised: RomanisedMatches | undefined;

  constructor(version: string, rows: IndexedCustomer[]) {
    this.version = version;
    // Per field, each key's slots; a row's keys are added together, so a key it holds twice is its last slot.
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

  /** Customers held. */
  get rows(): number {
    return this.live;
  }

  /** A customer held (as of `version`), or undefined when the book does not hold it. */
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
   * Brings the index to `version`: `rows` are the current rows of the customers logged since the
   * last version that are still in the book; every other logged id has left it (deleted or reassigned).
   * Throws `BookTooVaried` when the book no longer fits (then the store reads it again).
   */
  apply(version: string, changedIds: number[], rows: IndexedCustomer[]): void {
    // A few changes move their rows within the sort orders already built (a binary search and a
    // move of the entries between, each); many rebuild them when next needed.
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

  /** The column a sort orders by. */
  private sortKeys(sortBy: SortField): Float64Array | Int32Array {
    return sortBy === 'totalAssets' ? this.cents : sortBy === 'openDate' ? this.openDay : this.lastTradeDay;
  }

  /** Where `slot` goes (or is) in a descending order: the first entry that sorts after it. */
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
      // Descending key, then ascending id: does `other` come before `slot`?
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

  /** The romanisation words of search terms, after a space each (` wong huang chi…`); null: none computed. */
  private static termWords(searchTerms: string | null): string | null {
    if (searchTerms === null) return null;
    const space = searchTerms.indexOf(' ');
    return space < 0 ? '' : searchTerms.substring(space);
  }

  /** The postings' keys of a row. */
  private static addKeys(row: IndexedCustomer, add: (field: string, key: string) => void): void {
    addGrams(add, CN, row.nameCn);
    // The folded name's grams join the name's (the same, for a name already in Simplified).
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

  /** Stores a row in its slot (a new one for a new customer), and returns the slot; `rewritten`: after the build. */
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

  /**
   * Clients and cents per code group, counted in one pass when first needed after a change of the book
   * (`generation`): a stat or a page total with code filters only adds a few hundred groups instead of
   * testing every row.
   */
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

  /** The slots of a sort in descending order (key descending, then id ascending; no trade last). */
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

  /** What each code group stands for, as the filters read it (groups are only ever added). */
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

  /**
   * The test a row must pass; undefined when the criteria hold a value the index cannot decide exactly (a
   * date that is not `YYYY-MM-DD`, a bound that is not a finite number): the caller then asks SQL. The
   * filters are those of `customer-filters.ts`, each code group decided once by their `admits`.
   */
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

  /**
   * The slots that may match the keyword, from the postings of each arm and the rows written since the build;
   * undefined when an arm has no gram to look up (a single letter or digit): every row is then a candidate.
   */
  private keywordCandidates(keyword: CustomerKeyword, romanised: RomanisedMatches | undefined): Candidates | undefined {
    const lists: ArrayLike<number>[] = [];
    /** Lists whose rows hold the keyword, unless written again since the build (see `Candidates.held`). */
    const heldLists: ArrayLike<number>[] = [];
    /** `exact`: the arm's test is the text holding the term, so a posting of the term itself is exactly its rows. */
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
    // A name's postings hold the grams of the name and of its folded form: a term is tested against both
    // only when it is its own folded form (Simplified Chinese only), so only then is its posting exact.
    const chinese = keyword.chineseName;
    if (chinese && !byGrams(CN, keyword.text, chinese.folded === keyword.text)) return undefined;
    // The folded keyword's grams are in the same postings (a row's folded name's grams are added to its name's).
    if (chinese?.folded && chinese.folded !== keyword.text && !byGrams(CN, chinese.folded, false)) return undefined;
    // Confirmed matches (a row written again since the build is confirmed on its terms).
    if (romanised) heldLists.push(romanised.slots);
    if (keyword.customerNo) lists.push(this.postings.of(utf8(NUMBER_KEY + keyword.customerNo.key)));
    if (keyword.englishName && !byGrams(EN, lowerAsSql(keyword.text))) return undefined;
    if (keyword.phone && !byGrams(PHONE_GRAM, keyword.phone.digits)) return undefined;
    if (keyword.accountNo) lists.push(this.postings.of(utf8(ACCOUNT + keyword.accountNo)));
    if (keyword.idDocTail) lists.push(this.postings.of(utf8(ID_TAIL + keyword.idDocTail)));
    // The postings do not know the rows written since the build.
    lists.push([...this.rewrittenSlots.keys()]);
    // Distinct slots: a row written again may be in a posting and among the rows written since.
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

  /** A mark no slot carries yet (`stamp[slot] === mark` then means "marked by this step"). */
  private nextMark(): number {
    return (this.mark = advancedMark(this.mark, this.stamp));
  }

  /** The test a row must pass and, for a keyword, its candidates. Undefined when SQL must answer (see `rowTest`). */
  private matcher(criteria: CustomerCriteria): { test: RowTest; candidates: Candidates | undefined } | undefined {
    const keyword = criteria.keyword;
    const romanised = keyword?.romanised ? this.romanisedMatches(keyword.romanised.words, keyword.romanised.wordStarts) : undefined;
    const test = this.rowTest(criteria, romanised);
    if (!test) return undefined;
    return { test, candidates: keyword ? this.keywordCandidates(keyword, romanised) : undefined };
  }

  /** A mark no slot carries yet in `wordStamp`. */
  private nextWordMark(): number {
    return (this.wordMark = advancedMark(this.wordMark, this.wordStamp));
  }

  /**
   * The slots whose terms hold every typed word at the start of one of their words (`termsHoldWords`),
   * marked in `wordStamp`. Each typed word is the union of the postings of the whole words it begins;
   * the words are intersected rarest first, so the work follows the postings' sizes and no row's text is
   * read, except the terms of a row written since the build (kept apart, `rewrittenSlots`).
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

  /** One page of matching customers' ids in the list's order, and the total; undefined: ask SQL. */
  page(criteria: CustomerCriteria, sortBy: SortField, sortOrder: SortOrder, window: PageWindow): IndexedPage | undefined {
    const matcher = this.matcher(criteria);
    if (!matcher) return undefined;
    const { test, candidates } = matcher;
    const start = (window.pageNum - 1) * window.pageSize;
    const end = start + window.pageSize;
    if (criteria.keyword) return this.rankedPage(criteria.keyword, test, candidates, sortBy, sortOrder, start, end);
    if (test.admitsEveryRow()) {
      // The whole book: its order is the page, its size the total.
      const order = this.order(sortBy);
      const last = order.length - 1;
      const ids: number[] = [];
      for (let step = start; step < Math.min(end, order.length); step += 1)
        ids.push(this.ids[order[sortOrder === 'desc' ? step : last - step]!]!);
      return { ids, total: order.length };
    }
    if (test.decidedByGroup()) {
      // Code filters only: the total from the groups' tallies, the page by walking the sort's order
      // until it is full, each row's group read once.
      const admitted = test.admittedGroups;
      const { clients } = this.tallies();
      let total = 0;
      for (let group = DEAD_GROUP + 1; group < admitted.length; group += 1) if (admitted[group] === 1) total += clients[group]!;
      return { ids: this.walkOrder(sortBy, sortOrder, 0, start, end, total, admitted), total };
    }
    const range = this.narrowRange(test);
    if (range && range.sortBy === sortBy) {
      // The page's order is the range's: one pass over it counts the matches and keeps the page's.
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
    // Filters with a range, many matches possible: first mark and count them (in slot order, columns read
    // in sequence, unless a range holds few enough rows to read them at its order's positions), then walk
    // the sort's order reading only the marks, until the page is full.
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

  /**
   * The narrower of the test's asset and open-date ranges as a stretch of that sort's order, when it
   * holds few enough rows (`RANGE_READ_SHARE` of the book) that reading them at the order's positions
   * beats reading every row in sequence; undefined otherwise.
   */
  private narrowRange(test: RowTest): { sortBy: SortField; order: Int32Array; from: number; to: number } | undefined {
    let best: { sortBy: SortField; order: Int32Array; from: number; to: number } | undefined;
    for (const sortBy of ['totalAssets', 'openDate'] as const) {
      const bounds = test.boundsOn(sortBy);
      if (!bounds) continue;
      const order = this.order(sortBy);
      const keys = this.sortKeys(sortBy);
      // Descending keys: the stretch runs from the first key at or below the upper bound to the first below the lower.
      const from = firstAtOrBelow(order, keys, bounds[1]);
      const to = firstAtOrBelow(order, keys, bounds[0], true);
      if (!best || to - from < best.to - best.from) best = { sortBy, order, from, to };
    }
    return best && best.to - best.from <= this.live * RANGE_READ_SHARE ? best : undefined;
  }

  /**
   * A keyword's page: its matches grouped by tier (`MatchTiers`: the client asked for exactly, then
   * names that begin with the keyword, then the rest), each tier in the sort's order, the page cut
   * from the tiers one after another (ADR 0046 §5).
   *
   * A keyword with thousands of matches (`wong` in a large book) does not decide every
   * match's tier: the matches are marked and counted, the exact ones (a few at most, found by equality
   * tests only) set apart, and the sort's order is walked deciding the tier of the marked rows it
   * reaches, until the page's rows of the name-prefix tier are found; only a page that reaches the last
   * tier walks the whole order. Few matches are cheaper to rank all and sort (`walkIsCheaper`).
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
    // Mark and count the matches (no array of thousands per request: the garbage would cost more than the
    // marking); a whole phone is exact, and a number keyword's matches are few, so it is decided here.
    const mark = this.nextMark();
    const stamp = this.stamp;
    const exact: number[] = [];
    const wholePhone = keyword.phone;
    let total = 0;
    const count = (slot: number, held: boolean) => {
      if (stamp[slot] === mark || !(held ? test.passesHeld(slot) : test.passes(slot))) return;
      stamp[slot] = mark;
      total += 1;
      // Only the whole phone is tested per match: the other exact arms' few slots are confirmed below.
      if (wholePhone !== null && tiers.isWholePhone(slot)) exact.push(slot);
    };
    if (candidates) {
      const { slots, held } = candidates;
      for (let at = 0; at < slots.length; at += 1) count(slots[at]!, at < held);
    } else for (let slot = 0; slot < this.size; slot += 1) count(slot, false);
    // The rest of the exact tier, a handful of rows at most: the customer number's, the account's and the ID
    // tail's own slots (confirmed: a slot stays in these lists after its row changes).
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
      // Few matches (or a deep page): decide every one's tier and sort each tier.
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
    // Walk the order once: name-prefix rows in order until the page is full, the rest kept in order in case
    // the page reaches past them.
    const prefixWanted = end - exact.length;
    const prefixed: number[] = [];
    const rest: number[] = [];
    if (prefixWanted > 0) {
      const order = this.order(sortBy);
      const last = order.length - 1;
      const restWanted = end - exact.length;
      for (let step = 0; step <= last && prefixed.length < prefixWanted; step += 1) {
        const slot = order[sortOrder === 'desc' ? step : last - step]!;
        if (stamp[slot] !== mark) continue;
        if (tiers.isNamePrefix(slot)) prefixed.push(this.ids[slot]!);
        else if (rest.length < restWanted) rest.push(this.ids[slot]!);
      }
    }
    // Sorted after the walk, whose marks it must not disturb.
    const ids: number[] = exact.length > 0 ? this.orderedSlice(exact, sortBy, sortOrder, 0, exact.length) : [];
    // Not every prefixed row was found unless the walk ended: then `rest` is complete up to the page's end.
    const ranked = prefixed.length < prefixWanted ? [...ids, ...prefixed, ...rest] : [...ids, ...prefixed];
    return { ids: ranked.slice(start, end), total };
  }

  /**
   * The ids of `matches[from … to)` once in the sort's order, found the cheaper way: sort the matches,
   * or mark them and walk the sort's order until the slice is full (`walkIsCheaper`).
   */
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

  /**
   * The ids from `start` to `end` in the sort's order of the slots marked `mark` in `stamp` (`total` are), or,
   * with `admitted`, of the slots whose code group it admits.
   */
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

  /** One channel's cents summed in BigInt (a book holding more than 90 trillion HKD). */
  private exactSum(test: RowTest, candidates: Candidates | undefined, at: number): bigint {
    let total = 0n;
    const add = (slot: number) => {
      if (this.groups.channel[this.group[slot]!] === at && test.passes(slot)) total += BigInt(this.cents[slot]!);
    };
    if (candidates) for (const slot of candidates.slots) add(slot);
    else for (let slot = 0; slot < this.size; slot += 1) add(slot);
    return total;
  }

  /**
   * The header stat per channel: clients, HKD total (exact to the cent), active, and new since
   * `monthStart` (`YYYY-MM-DD`, the Hong Kong month). Ordered as SQL orders it: clients descending,
   * then channel. Undefined: ask SQL.
   */
  stat(criteria: CustomerCriteria, monthStart: string): StatRow[] | undefined {
    const matcher = this.matcher(criteria);
    const monthDay = dayKey(monthStart);
    if (!matcher || monthDay === undefined) return undefined;
    const { test, candidates } = matcher;
    const channelCount = this.channels.numbers.size;
    // Two banks of tallies, even slots in the first and odd in the second, added at the end: consecutive
    // rows of one channel no longer wait on each other's add. The yes/no tallies add 0 or 1 instead of
    // branching (a status or an open day is as good as random from one row to the next).
    const banks = channelCount * 2;
    const clients = new Int32Array(banks);
    const sums = new Float64Array(banks);
    const active = new Int32Array(banks);
    const fresh = new Int32Array(banks);
    const activeStatus = this.statuses.numbers.get('active') ?? -1;
    const { group, cents, openDay, groups } = this;
    // Per code group: its channel, and 1 when its status is active.
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
      // The whole book (the list's header with no filter, the most common stat): no test per row.
      const size = this.size;
      for (let slot = 0; slot < size; slot += 1) if (group[slot] !== DEAD_GROUP) tally(slot);
    } else if (test.decidedByGroup()) {
      // Code filters only: the admitted groups' tallies, then "new this month" from the first entries of
      // the open-date order (the month's new clients, a few hundred), read while they are this month's.
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
    // Whole cents add exactly in a double while no partial sum can pass 2^53 (90 trillion HKD), which
    // the clients counted times the largest size any customer had bounds. Past that, the channel's sum
    // is done again in BigInt.
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

/** The mark after `mark` for `stamps`; on wrapping past 2³²−1 every stamp is cleared, so no slot carries it yet. */
function advancedMark(mark: number, stamps: Uint32Array): number {
  const next = (mark + 1) >>> 0;
  if (next !== 0) return next;
  stamps.fill(0);
  return 1;
}

/**
 * A range holding up to this share of a book is read at its sort order's positions (random reads); a wider
 * one costs less read row by row in sequence.
 */
const RANGE_READ_SHARE = 0.4;

/**
 * In an order of descending `keys`, the first position whose key is at or below `bound` (`strictly`:
 * below it); the order's length when none is.
 */
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

/**
 * Whether marking `matches` and walking a sort order of `live` slots finds a page ending at `end` in fewer
 * steps than sorting the matches: the walk reads about `end / matches` of the order (the matches are
 * spread through it), a sort compares ~m·log2 m times, a comparison costing a few steps of the walk.
 */
export function walkIsCheaper(matches: number, end: number, live: number): boolean {
  if (matches <= 1) return false;
  const walkSteps = Math.min(live, ((Math.min(end, matches) + 1) / matches) * live);
  const sortSteps = 4 * matches * Math.log2(matches);
  return walkSteps < sortSteps;
}

/**
 * A keyword's candidate slots, distinct. The first `held` hold the keyword unless their row was written again
 * since the build (postings keep the grams a row lost): for those only the filters are tested.
 */
interface Candidates {
  slots: number[];
  held: number;
}

/** A romanised keyword's matches: their slots, marked `mark` in the book's `wordStamp` (see `romanisedMatches`). */
interface RomanisedMatches {
  /** The typed words, one space apart. */
  key: string;
  generation: number;
  mark: number;
  slots: number[];
}

/** What a query asks of each row, decided once per query (see `BookIndex.rowTest`). */
interface RowConditions extends RangeBounds {
  /** Per code group: 1 when its channel, status, KYC binding and markets held pass the filters (never `DEAD_GROUP`). */
  groups: Uint8Array;
  /** A filter on channels, statuses, KYC binding, markets or holdings is set. */
  codesFiltered: boolean;
  /** A bound on the assets is set (`minCents`, `maxCents`): only then are the cents read. */
  assetRange: boolean;
  /** A bound on the open date is set: only then is the open day read. */
  dayRange: boolean;
  keyword: boolean;
  chineseText: Uint8Array | null;
  foldedText: Uint8Array | null;
  /** The romanised keyword's matches are the slots carrying this mark in `wordStamp`; 0: no such arm. */
  romanisedMark: number;
  customerNo: CustomerNoKeyword | null;
  customerNoKey: Uint8Array | null;
  englishText: string | null;
  englishBytes: Uint8Array | null;
  phoneDigits: Uint8Array | null;
  accountNo: Uint8Array | null;
  idDocTail: Uint8Array | null;
}

/**
 * The filters and the keyword's arms as one method of one class: V8 inlines `passes` into the loops over a
 * book. A closure made per query is a new function each time; once a loop had seen a few, it called them
 * instead. The arms are `keywordCondition`'s, over the index's packed texts.
 */
class RowTest {
  private readonly book: BookIndex;
  private readonly conditions: RowConditions;

  constructor(book: BookIndex, conditions: RowConditions) {
    this.book = book;
    this.conditions = conditions;
  }

  /** No filter and no keyword: every live row passes. */
  admitsEveryRow(): boolean {
    const when = this.conditions;
    return !when.keyword && !when.codesFiltered && !when.assetRange && !when.dayRange;
  }

  /** Only code filters (or none): whether a row passes is decided by its code group alone. */
  decidedByGroup(): boolean {
    const when = this.conditions;
    return !when.keyword && !when.assetRange && !when.dayRange;
  }

  /** The bounds the test sets on a sort's key, lowest and highest (cents, or the open day as yyyymmdd); undefined: none. */
  boundsOn(sortBy: 'totalAssets' | 'openDate'): [number, number] | undefined {
    const when = this.conditions;
    if (sortBy === 'totalAssets') return when.assetRange ? [when.minCents, when.maxCents] : undefined;
    return when.dayRange ? [when.fromDay, when.toDay] : undefined;
  }

  /** Per code group, 1 when it passes (see `decidedByGroup`). */
  get admittedGroups(): Uint8Array {
    return this.conditions.groups;
  }

  get romanisedMark(): number {
    return this.conditions.romanisedMark;
  }

  passes(slot: number): boolean {
    return this.passesFilters(slot) && (!this.conditions.keyword || this.keywordMatches(slot));
  }

  /** For a candidate whose posting holds the keyword (`Candidates.held`): the filters only, unless its row was written again. */
  passesHeld(slot: number): boolean {
    return this.book.rewritten[slot] === 1 ? this.passes(slot) : this.passesFilters(slot);
  }

  /** The filters, not the keyword. */
  private passesFilters(slot: number): boolean {
    const book = this.book;
    const when = this.conditions;
    // Also refuses a slot no longer in the book (`DEAD_GROUP`).
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
    // The romanised arm first: a mark read, where the others read text.
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
