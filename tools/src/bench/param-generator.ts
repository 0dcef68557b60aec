import { addDays, dayNumber } from '@broker/domain';
import { customerStatusSchema, marketSchema, sortFieldSchema, TIMELINE_KINDS, timelineCursorText } from '@broker/contract';
import { nameReadings, traditionalChinese, type DatabaseHandle } from '@broker/server';
import type { EndpointInput } from './http-request';

export type Queryable = Pick<DatabaseHandle, 'query'>;

/** What the generator draws from: the staff member's own book, read once, so every keyword is a real client's. */
export interface BookSample {
  customers: Array<{
    id: number;
    customerNo: string;
    nameCn: string;
    nameEn: string;
    phoneDigits: string | null;
    idDocLast4: string;
    accountNos: string[];
  }>;
  channels: string[];
  /** Customers with at least one MOT event (the client history). */
  eventCustomerIds: number[];
  /** Names of clients with a service record (the history search finds them). */
  servedNames: Array<{ nameCn: string; nameEn: string }>;
  /** The dataset's day: date ranges end there. */
  asOf: string;
  firstOpenDate: string;
  /** The client with the longest history, whose timeline is paged through: first and last activity, epoch ms. */
  timelineCustomer: { id: number; firstAt: number; lastAt: number; maxId: number } | null;
}

export async function loadBookSample(database: Queryable, staffId: number, asOf: string): Promise<BookSample> {
  const customers = await database.query<BookSample['customers'][number]>(
    `select c.id::float8 as id, c.customer_no as "customerNo", c.name_cn as "nameCn", c.name_en as "nameEn", c.phone_digits as "phoneDigits",
            c.id_doc_last4 as "idDocLast4",
            coalesce(array_agg(a.account_no order by a.id) filter (where a.id is not null), '{}') as "accountNos"
       from customer c left join account a on a.customer_id = c.id
      where c.staff_id = $1 group by c.id order by c.id`,
    [staffId],
  );
  if (customers.length === 0) throw new Error(`staff ${staffId} has no customers`);
  const [channels, events, served, opened, busiest] = await Promise.all([
    database.query<{ channel: string }>(`select distinct channel from customer where staff_id = $1 order by channel`, [staffId]),
    database.query<{ id: number }>(`select distinct customer_id::float8 as id from mot_event where staff_id = $1 order by id`, [staffId]),
    database.query<{ nameCn: string; nameEn: string }>(
      `select distinct c.name_cn as "nameCn", c.name_en as "nameEn" from contact_record r join customer c on c.id = r.customer_id
        where r.staff_id = $1 order by 1, 2`,
      [staffId],
    ),
    database.query<{ first: string }>(`select min(open_date)::text as first from customer where staff_id = $1`, [staffId]),
    database.query<{ id: number; firstAt: number; lastAt: number; maxId: number }>(
      `with activity as (
         select t.customer_id, t.traded_at as at, t.id from trade t join customer c on c.id = t.customer_id where c.staff_id = $1
         union all
         select m.customer_id, m.occurred_at, m.id from money_movement m join customer c on c.id = m.customer_id where c.staff_id = $1
         union all
         select x.customer_id, x.occurred_at, x.id from stock_transfer x join customer c on c.id = x.customer_id where c.staff_id = $1)
       select customer_id::float8 as id, floor(extract(epoch from min(at)) * 1000)::float8 as "firstAt",
              floor(extract(epoch from max(at)) * 1000)::float8 as "lastAt", max(id)::float8 as "maxId"
         from activity group by customer_id
        order by max(at) - min(at) desc, count(*) desc, customer_id limit 1`,
      [staffId],
    ),
  ]);
  return {
    customers,
    channels: channels.map((row) => row.channel),
    eventCustomerIds: events.map((row) => row.id),
    servedNames: served,
    asOf,
    firstOpenDate: opened[0]?.first ?? addDays(asOf, -6000),
    timelineCustomer: busiest[0] ?? null,
  };
}

/** mulberry32: small, fast, and the same sequence for the same seed on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a of the seed and the scenario's name: each scenario has a stream of its own, whichever others run. */
function streamSeed(seed: number, name: string): number {
  let hash = 0x811c9dc5 ^ (seed >>> 0);
  for (const char of name) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  return hash >>> 0;
}

class Draw {
  constructor(readonly next: () => number) {}
  int(min: number, max: number) {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number) {
    return this.next() < p;
  }
  pick<T>(values: readonly T[]): T {
    return values[Math.floor(this.next() * values.length)]!;
  }
  /** A non-empty subset of 1..max distinct values, in the list's order. */
  someOf<T>(values: readonly T[], max = values.length): T[] {
    const count = this.int(1, Math.min(max, values.length));
    const chosen = new Set<T>();
    while (chosen.size < count) chosen.add(this.pick(values));
    return values.filter((value) => chosen.has(value));
  }
  /** `from` ≤ `to`, both between `first` and `last`. */
  dayRange(first: string, last: string) {
    const span = Math.max(dayNumber(last) - dayNumber(first), 0);
    const from = this.int(0, span);
    return { from: addDays(first, from), to: addDays(first, this.int(from, span)) };
  }
}

const STATUSES = customerStatusSchema.options;
const MARKETS = marketSchema.options;
const SORT_FIELDS = sortFieldSchema.options;
/** The first eight rules: the risk rules (ADR 0043) are not drawn, so figures compare with earlier runs. */
const MOT_RULES = [
  'birthday',
  'large_deposit',
  'large_withdrawal',
  'dormant',
  'position_loss',
  'anniversary',
  'id_expiry',
  'risk_expiry',
] as const;
const SERVICE_CHANNELS = ['phone', 'wecom', 'meeting', 'other'] as const;
export const HISTORY_KEYWORDS = ['birthday', '入金', 'risk', '证件', 'position', 'offer', '客户', 'Called', '跟进', 'branch'];

/** A page number as a manager reaches it: mostly the first few, sometimes anywhere up to the contract's 500. */
const pageNum = (draw: Draw) => (draw.chance(0.5) ? draw.int(1, 5) : draw.int(1, 500));

/** HKD amounts from 0 to 100 million, spread over the orders of magnitude. */
const amount = (draw: Draw) => Math.round(10 ** (draw.next() * 8));

/** Part of a Chinese name: 1–3 characters from a random position. */
function chineseFragment(draw: Draw, name: string): string {
  const chars = [...name];
  const length = draw.int(1, Math.min(3, chars.length));
  const start = draw.int(0, chars.length - length);
  return chars.slice(start, start + length).join('');
}

/** The English name whole, from its second word (after an English first name), or a prefix of three or more characters. */
function englishName(draw: Draw, name: string): string {
  const words = name.split(' ');
  const from = words.length >= 3 && draw.chance(0.5) ? 1 : 0;
  const text = words.slice(from).join(' ');
  if (text.length <= 3 || draw.chance(0.3)) return text;
  return text.slice(0, draw.int(3, text.length - 1)).trim();
}

/** The Chinese name romanised as a manager types it (ADR 0046): Cantonese or pinyin, in any order, form and case. */
function romanisedName(draw: Draw, nameCn: string): string {
  const readings = nameReadings(nameCn);
  const syllables = draw.chance(0.5) ? readings.cantonese : readings.pinyin;
  if (syllables.length < 2 || syllables.some((syllable) => !syllable)) return '';
  const surname = syllables.slice(0, readings.surnameLength).join(draw.chance(0.5) ? '' : ' ');
  const givenSyllables = syllables.slice(readings.surnameLength);
  if (draw.chance(0.15)) return syllables.map((syllable) => syllable[0]).join('');
  const given = givenSyllables.join(draw.chance(0.5) ? ' ' : '');
  let text = draw.chance(0.3) ? `${given} ${surname}` : draw.chance(0.2) ? surname : `${surname} ${given}`;
  if (text.length > 4 && draw.chance(0.3)) text = text.slice(0, draw.int(3, text.length - 1)).trim();
  return draw.chance(0.4) ? text.toUpperCase() : draw.chance(0.5) ? text : text.replace(/\b[a-z]/g, (letter) => letter.toUpperCase());
}

/** A customer number as a manager says it: in full, lower case, its digits with or without the zeros, letters and digits without the zeros. */
function customerNumber(draw: Draw, customerNo: string): string {
  const digits = /[0-9]+$/.exec(customerNo)?.[0];
  if (!digits) return customerNo;
  const bare = digits.replace(/^0+/, '') || digits;
  const letters = customerNo.slice(0, customerNo.length - digits.length);
  return draw.pick([customerNo, customerNo.toLowerCase(), digits, bare, `${letters.toLowerCase()}${bare}`]);
}

/** The random filters of the client list's filter sheet; each is set or left out independently. */
function customerFilters(draw: Draw, book: BookSample): EndpointInput {
  const filters: EndpointInput = {};
  if (draw.chance(0.4)) filters.statuses = draw.someOf(STATUSES);
  if (draw.chance(0.3)) filters.markets = draw.someOf(MARKETS);
  if (draw.chance(0.3) && book.channels.length) filters.channels = draw.someOf(book.channels, 10);
  if (draw.chance(0.3)) {
    const [low, high] = [amount(draw), amount(draw)].sort((a, b) => a - b);
    if (draw.chance(0.7)) filters.assetMin = low;
    if (draw.chance(0.7)) filters.assetMax = high;
  }
  if (draw.chance(0.3)) {
    const range = draw.dayRange(book.firstOpenDate, book.asOf);
    if (draw.chance(0.7)) filters.openDateFrom = range.from;
    if (draw.chance(0.7)) filters.openDateTo = range.to;
  }
  if (draw.chance(0.25)) filters.kycBound = draw.chance(0.5);
  if (draw.chance(0.25)) filters.hasHolding = draw.chance(0.5);
  return filters;
}

const listView = (draw: Draw): EndpointInput => ({
  sortBy: draw.pick(SORT_FIELDS),
  sortOrder: draw.chance(0.5) ? 'asc' : 'desc',
  pageNum: pageNum(draw),
});

/** A date range of the client's records (trades, money, transfers): up to three years back, either end optional. */
function recordRange(draw: Draw, book: BookSample): EndpointInput {
  const range = draw.dayRange(addDays(book.asOf, -3 * 365), book.asOf);
  const which = draw.int(0, 3);
  return {
    ...(which !== 1 ? { dateFrom: range.from } : {}),
    ...(which !== 2 ? { dateTo: range.to } : {}),
  };
}

const optional = <T>(draw: Draw, p: number, value: () => T): T | undefined => (draw.chance(p) ? value() : undefined);

/** How each honest scenario draws one request's input. */
const DRAWS: Record<string, (draw: Draw, book: BookSample) => EndpointInput> = {
  /** Part of the Chinese name as stored or in Traditional characters, the English name, or the Chinese name romanised. */
  'search:name': (draw, book) => {
    const customer = draw.pick(book.customers);
    const form = draw.next();
    if (form < 0.3) return { keyword: chineseFragment(draw, customer.nameCn) };
    if (form < 0.45) return { keyword: traditionalChinese(chineseFragment(draw, customer.nameCn)) };
    if (form < 0.75) return { keyword: englishName(draw, customer.nameEn) };
    return { keyword: romanisedName(draw, customer.nameCn) || englishName(draw, customer.nameEn) };
  },
  'search:phone': (draw, book) => {
    let digits = '';
    // A client without a phone is rare: another one is drawn.
    for (let attempt = 0; attempt < 16 && digits.length < 3; attempt++) digits = draw.pick(book.customers).phoneDigits ?? '';
    if (digits.length < 3) throw new Error('the book has no phone numbers to search for');
    const length = draw.int(3, Math.min(8, digits.length));
    const start = draw.int(0, digits.length - length);
    return { keyword: digits.slice(start, start + length) };
  },
  /** An account number as stored, as digits only, or in lower case; an identity document's last four; or the customer number in any form. */
  'search:account': (draw, book) => {
    const customer = draw.pick(book.customers);
    if (draw.chance(0.3)) return { keyword: customerNumber(draw, customer.customerNo) };
    const account = customer.accountNos.length ? draw.pick(customer.accountNos) : null;
    const variant = draw.int(0, 3);
    if (variant === 3 || !account) return { keyword: draw.chance(0.5) ? customer.idDocLast4 : customer.idDocLast4.toLowerCase() };
    if (variant === 1 && /\d{4,}/.test(account)) return { keyword: account.replace(/\D/g, '') };
    return { keyword: variant === 2 ? account.toLowerCase() : account };
  },
  'search:filters': (draw, book) => ({ ...customerFilters(draw, book), ...listView(draw) }),
  /** The whole book, deep: every order, pages 1–500. */
  'search:pages': (draw) => ({
    ...(draw.chance(0.3) ? { statuses: draw.someOf(STATUSES, 2) } : {}),
    ...listView(draw),
    pageNum: draw.int(1, 500),
  }),
  stat: (draw, book) => customerFilters(draw, book),
  getProfile: (draw, book) => ({ customerId: draw.pick(book.customers).id }),
  getAsset: (draw, book) => ({ customerId: draw.pick(book.customers).id }),
  getHolding: (draw, book) => ({
    customerId: draw.pick(book.customers).id,
    market: optional(draw, 0.3, () => draw.pick(MARKETS)),
    pageNum: draw.int(1, 2),
  }),
  getTrade: (draw, book) => ({
    customerId: draw.pick(book.customers).id,
    ...recordRange(draw, book),
    market: optional(draw, 0.2, () => draw.pick(MARKETS)),
    side: optional(draw, 0.2, () => draw.pick(['buy', 'sell'])),
    status: optional(draw, 0.1, () => draw.pick(['settled', 'unsettled'])),
    pageNum: draw.int(1, 3),
  }),
  getMoney: (draw, book) => ({
    customerId: draw.pick(book.customers).id,
    ...recordRange(draw, book),
    direction: optional(draw, 0.3, () => draw.pick(['deposit', 'withdrawal'])),
    currency: optional(draw, 0.2, () => draw.pick(['HKD', 'USD', 'CNY'])),
    pageNum: draw.int(1, 3),
  }),
  getTransfer: (draw, book) => ({
    customerId: draw.pick(book.customers).id,
    ...recordRange(draw, book),
    market: optional(draw, 0.2, () => draw.pick(MARKETS)),
    direction: optional(draw, 0.3, () => draw.pick(['in', 'out'])),
    pageNum: draw.int(1, 2),
  }),
  'mot:todoClient': (draw, book) => ({
    date: addDays(book.asOf, draw.int(-30, 30)),
    rule: optional(draw, 0.3, () => draw.pick(MOT_RULES)),
    pageNum: draw.int(1, 20),
  }),
  'mot:history': (draw, book) => {
    const served = book.servedNames.length ? draw.pick(book.servedNames) : null;
    const keyword = draw.chance(0.6)
      ? served && draw.chance(0.5)
        ? draw.chance(0.5)
          ? chineseFragment(draw, served.nameCn)
          : englishName(draw, served.nameEn)
        : draw.pick(HISTORY_KEYWORDS)
      : undefined;
    const range = draw.chance(0.4) ? draw.dayRange(addDays(book.asOf, -400), addDays(book.asOf, 30)) : null;
    return {
      keyword,
      rule: optional(draw, 0.2, () => draw.pick(MOT_RULES)),
      channel: optional(draw, 0.2, () => draw.pick(SERVICE_CHANNELS)),
      ...(range ? { dateFrom: range.from, dateTo: range.to } : {}),
      pageNum: draw.int(1, 10),
    };
  },
  /** The longest history's timeline: the first page or one from a random point (a cursor drawn), any kinds. */
  timeline: (draw, book) => {
    const customer = book.timelineCustomer;
    if (!customer) throw new Error('the book has no client with any activity for the timeline');
    const atMs = draw.int(customer.firstAt, customer.lastAt);
    const cursor = draw.chance(0.25)
      ? undefined
      : timelineCursorText({ atMicros: atMs * 1000 + draw.int(0, 999), rank: draw.int(0, 8), id: draw.int(1, customer.maxId) });
    return {
      customerId: customer.id,
      kinds: draw.chance(0.4) ? undefined : draw.someOf(TIMELINE_KINDS),
      cursor,
      limit: draw.chance(0.7) ? 20 : draw.int(10, 50),
    };
  },
  // The ranked day is always today's: the type filter, page size and depth vary (deep pages cost the same).
  'mot:ranked': (draw) => ({
    rule: optional(draw, 0.3, () => draw.pick(MOT_RULES)),
    pageNum: draw.int(1, 20),
    pageSize: draw.pick([10, 15, 20, 25, 30, 40, 50]),
  }),
  'mot:clientHistory': (draw, book) => ({
    customerId: draw.pick(book.eventCustomerIds.length ? book.eventCustomerIds : book.customers.map((customer) => customer.id)),
    pageNum: draw.int(1, 3),
  }),
};

/** How many draws a stream tries for an input it has not given before, before it gives up and repeats one. */
const FRESH_ATTEMPTS = 64;

/** Leaves out undefined fields, so `{a: undefined}` and `{}` are the same input (and the same key). */
const defined = (input: EndpointInput): EndpointInput =>
  Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));

/** Inputs of one scenario, none given twice in a run, as long as the book holds new ones. */
export function paramStream(scenario: string, book: BookSample, seed: number) {
  const drawInput = DRAWS[scenario];
  if (!drawInput) throw new Error(`no parameter generator for ${scenario}`);
  const draw = new Draw(seededRandom(streamSeed(seed, scenario)));
  const seen = new Set<string>();
  let repeats = 0;
  return {
    next() {
      let input: EndpointInput = {};
      for (let attempt = 0; attempt < FRESH_ATTEMPTS; attempt++) {
        input = defined(drawInput(draw, book));
        const key = JSON.stringify(input);
        if (seen.has(key)) continue;
        seen.add(key);
        return input;
      }
      repeats += 1;
      return input;
    },
    /** Inputs given before (the book had no new one left within FRESH_ATTEMPTS draws). */
    get repeats() {
      return repeats;
    },
  };
}
