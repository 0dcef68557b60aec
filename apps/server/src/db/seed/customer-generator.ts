import { formatDay, weekdaysBetween } from './calendar';
import { idNumberLast4, maskIdNumber } from '@broker/domain';
import { searchTerms } from '../search-terms';
import { textArrayLiteral } from '../sql-rows';
import { hkid, mainlandId, passport } from './identity-documents';
import { Prng } from './prng';
import {
  CHANNELS,
  COUNTERPARTY_BROKERS,
  CUSTOMER_TAGS,
  EMAIL_DOMAINS_CN,
  EMAIL_DOMAINS_HK,
  ENGLISH_FEMALE,
  ENGLISH_MALE,
  GIVEN_FEMALE,
  GIVEN_MALE,
  REMARKS,
  SECURITIES,
  SURNAME_WEIGHTS,
  SURNAMES,
  type Channel,
  type CurrencyCode,
  type SecuritySeed,
} from './reference-data';

/** In the order the generator writes them (COPY text format). */
export const SEED_COLUMNS = {
  customer: [
    'id',
    'corp_id',
    'staff_id',
    'customer_no',
    'channel',
    'name_cn',
    'name_en',
    'search_terms',
    'gender',
    'phone',
    'phone_digits',
    'email',
    'id_doc_type',
    'id_doc_masked',
    'id_doc_last4',
    'id_doc_expiry',
    'birthday',
    'risk_level',
    'risk_assessed_on',
    'status',
    'open_date',
    'closed_date',
    'tags',
    'remark',
  ],
  account: ['id', 'corp_id', 'customer_id', 'account_no', 'type', 'status', 'open_date'],
  cash_balance: ['account_id', 'currency', 'balance'],
  holding: ['account_id', 'customer_id', 'security_id', 'quantity', 'avg_cost'],
  trade: [
    'id',
    'account_id',
    'customer_id',
    'security_id',
    'side',
    'quantity',
    'price',
    'amount',
    'fee',
    'currency',
    'traded_at',
    'settle_date',
  ],
  money_movement: ['id', 'account_id', 'customer_id', 'direction', 'currency', 'amount', 'method', 'occurred_at'],
  stock_transfer: ['id', 'account_id', 'customer_id', 'security_id', 'direction', 'quantity', 'counterparty', 'occurred_at'],
} as const;

export type SeedTable = keyof typeof SEED_COLUMNS;
export const SEED_TABLES = Object.keys(SEED_COLUMNS) as SeedTable[];

export type SeedBatch = Record<SeedTable, string[]>;

export const emptyBatch = () => Object.fromEntries(SEED_TABLES.map((table) => [table, [] as string[]])) as SeedBatch;

export interface StaffRef {
  id: number;
  channel: Channel;
  weight: number;
}

interface PricedSecurity extends SecuritySeed {
  id: number;
  closes: Float64Array;
}

type GeneratorContext = ReturnType<typeof buildContext>;

const WINDOW_DAYS = 730;

export function buildContext(options: {
  seed: number;
  corpId: number;
  asOfDay: number;
  staff: StaffRef[];
  securityIds: Map<string, number>;
}) {
  const { seed, asOfDay } = options;
  const tradingDays = weekdaysBetween(asOfDay - WINDOW_DAYS, asOfDay + 10);
  /** Index of the last trading day on or before the as-of date. */
  let lastTi = 0;
  while (tradingDays[lastTi + 1]! <= asOfDay) lastTi++;
  const securities: PricedSecurity[] = SECURITIES.map((security, index) => ({
    ...security,
    id: options.securityIds.get(security.symbol)!,
    closes: pricePath(new Prng(seed, 0x5ec, index), security, lastTi),
  }));
  const byCurrency = {} as Record<CurrencyCode, { list: PricedSecurity[]; weights: number[] }>;
  for (const currency of ['HKD', 'USD', 'CNY'] as const) {
    const list = securities.filter((security) => security.currency === currency);
    byCurrency[currency] = { list, weights: list.map((security) => security.weight) };
  }
  return {
    seed,
    corpId: options.corpId,
    asOfDay,
    tradingDays,
    lastTi,
    securities,
    byCurrency,
    staff: options.staff,
    staffWeights: options.staff.map((member) => member.weight),
    dates: tradingDays.map(formatDay),
  };
}

/** Walked backwards from today's price, so the last close is exactly the reference price. */
function pricePath(rng: Prng, security: SecuritySeed, lastTi: number): Float64Array {
  const closes = new Float64Array(lastTi + 1);
  const volatility = security.market === 'US' ? 0.02 : 0.017;
  const drift = rng.normal() * 0.0006;
  let price = security.price;
  for (let ti = lastTi; ti >= 0; ti--) {
    closes[ti] = roundToTick(price, security.market);
    price = price / Math.exp(drift + volatility * rng.normal());
  }
  return closes;
}

/** HKEX's spread table: the tick below each bound, and the last tick from the last bound up (`at(-1)`). */
const HK_TICK_BELOW = [0.25, 0.5, 10, 20, 100, 200, 500, 1000];
const HK_TICKS = [0.001, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1];

export function roundToTick(price: number, market: SecuritySeed['market']): number {
  const tick = market === 'HK' ? HK_TICKS.at(HK_TICK_BELOW.findIndex((below) => price < below))! : 0.01;
  return Math.max(tick, Math.round(price / tick) * tick);
}

const MAINLAND_MOBILE_PREFIXES = ['135', '136', '137', '138', '139', '150', '158', '186', '188', '189', '177'];

const pad = (value: number, width: number) => String(value).padStart(width, '0');
const money = (cents: number) => (cents / 100).toFixed(2);

function copyText(value: string | null): string {
  if (value === null) return '\\N';
  return /[\\\t\n\r]/.test(value) ? value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r') : value;
}

/** Allocated in customer order, so the same seed gives the same ids whatever the chunk size. */
export interface IdCounters {
  trade: number;
  moneyMovement: number;
  transfer: number;
}

export function generateCustomer(context: GeneratorContext, id: number, batch: SeedBatch, ids: IdCounters): void {
  const rng = new Prng(context.seed, id);
  const { asOfDay, lastTi, dates } = context;

  const staffMember = rng.weighted(context.staff, context.staffWeights);
  const channel = rng.chance(0.9) ? staffMember.channel : rng.pick(CHANNELS);
  const segment = rng.weighted(['hk', 'mainland', 'intl'] as const, staffMember.channel === 'online' ? [35, 60, 5] : [68, 27, 5]);
  const male = rng.chance(0.5);
  const status = rng.weighted(['active', 'dormant', 'closed'] as const, [72, 20, 8]);

  const surname = rng.weighted(SURNAMES, SURNAME_WEIGHTS);
  const pool = male ? GIVEN_MALE : GIVEN_FEMALE;
  const given = rng.chance(0.85) ? [rng.pick(pool), rng.pick(pool)] : [rng.pick(pool)];
  const nameCn = surname[0] + given.map((part) => part[0]).join('');
  let nameEn: string;
  let emailLocal: string;
  if (segment === 'mainland') {
    const pinyin = given.map((part) => part[2]).join('');
    const joined = pinyin.charAt(0) + pinyin.slice(1).toLowerCase();
    nameEn = `${surname[2]} ${joined}`;
    emailLocal = `${joined.toLowerCase()}${surname[2].toLowerCase()}${rng.int(1, 99)}`;
  } else {
    const cantonese = given.map((part) => part[1]).join(' ');
    const english = rng.chance(0.4) ? rng.pick(male ? ENGLISH_MALE : ENGLISH_FEMALE) : null;
    nameEn = english ? `${english} ${surname[1]} ${cantonese}` : `${surname[1]} ${cantonese}`;
    emailLocal = `${(english ?? given.map((part) => part[1]).join('')).toLowerCase()}.${surname[1].toLowerCase()}${rng.chance(0.5) ? rng.int(1, 99) : ''}`;
  }

  // Country code and groups: shown apart, searched joined.
  const phoneParts =
    segment === 'mainland'
      ? ['86', rng.pick(MAINLAND_MOBILE_PREFIXES), pad(rng.int(0, 9999), 4), pad(rng.int(0, 9999), 4)]
      : ['852', `${rng.pick(['5', '6', '9'])}${pad(rng.int(0, 999), 3)}`, pad(rng.int(0, 9999), 4)];
  const phone = `+${phoneParts.join(' ')}`;
  const phoneDigits = phoneParts.join('');
  const email = rng.chance(0.88) ? `${emailLocal}@${rng.pick(segment === 'mainland' ? EMAIL_DOMAINS_CN : EMAIL_DOMAINS_HK)}` : null;

  // Dormant and closed customers opened long enough ago to have gone quiet.
  const age = Math.round(22 + Math.abs(rng.normal()) * 18 + rng.next() * 10);
  const birthday = formatDay(asOfDay - age * 365 - rng.int(0, 364));
  const unfunded = status === 'active' && rng.chance(0.03);
  const openDay = unfunded
    ? asOfDay - rng.int(3, 80)
    : status === 'active'
      ? rng.chance(0.55)
        ? asOfDay - rng.int(731, 6000)
        : asOfDay - rng.int(30, 730)
      : asOfDay - rng.int(430, 6000);
  const openDate = formatDay(openDay);

  // An HKID does not expire; a few others have (or soon will).
  const expiry = (soon: number, latest: number) => formatDay(asOfDay + (rng.chance(soon) ? rng.int(-20, 60) : rng.int(61, latest)));
  const document = segment === 'mainland' ? mainlandId(rng, birthday, male) : segment === 'intl' ? passport(rng) : hkid(rng);
  const documentExpiry = segment === 'mainland' ? expiry(0.04, 7000) : segment === 'intl' ? expiry(0.05, 3600) : null;
  const masked = maskIdNumber(document.number);
  const last4 = idNumberLast4(document.number);
  const riskLevel = rng.weighted([1, 2, 3, 4, 5], [10, 25, 35, 20, 10]);
  const riskAssessedOn = formatDay(Math.max(openDay, asOfDay - rng.int(0, 1100)));

  const tags: string[] = [];
  const tagCount = rng.weighted([0, 1, 2, 3], [45, 30, 18, 7]);
  while (tags.length < tagCount) {
    const tag = rng.pick(CUSTOMER_TAGS);
    if (!tags.includes(tag)) tags.push(tag);
  }
  const remark = rng.chance(0.15) ? rng.pick(REMARKS) : null;

  // As trading-day indexes.
  const firstTi = tiOnOrAfter(context, openDay);
  let endTi = lastTi;
  if (status === 'dormant') endTi = lastTi - rng.int(130, 240);
  if (status === 'closed') endTi = lastTi - rng.int(5, 200);
  const startTi = Math.min(firstTi, endTi - 20);
  const closedDate = status === 'closed' ? dates[endTi]! : null;

  const margin = rng.chance(0.2);
  const accountId = id;
  const marginLimitCents = margin ? rng.int(10, 100) * 10_000_00 : 0;
  const currencies: CurrencyCode[] = ['HKD'];
  if (rng.chance(segment === 'mainland' ? 0.25 : 0.35)) currencies.push('USD');
  if (rng.chance(segment === 'mainland' ? 0.45 : 0.08)) currencies.push('CNY');

  const favourites: PricedSecurity[] = [];
  const favouriteCount = rng.int(3, 8);
  for (let i = 0; i < favouriteCount * 2 && favourites.length < favouriteCount; i++) {
    const pool = context.byCurrency[rng.pick(currencies)];
    const security = rng.weighted(pool.list, pool.weights);
    if (!favourites.includes(security)) favourites.push(security);
  }

  const cash: Record<CurrencyCode, number> = { HKD: 0, USD: 0, CNY: 0 };
  const used = new Set<CurrencyCode>(['HKD']);
  // Costs in cents of the security's currency.
  const positions = new Map<number, { security: PricedSecurity; quantity: number; costCents: number }>();
  const customerId = id;

  const stamp = (ti: number, market: SecuritySeed['market'] | 'cash') => {
    const minute =
      market === 'US' ? rng.int(22 * 60, 23 * 60 + 59) : market === 'cash' ? rng.int(9 * 60, 18 * 60) : rng.int(9 * 60 + 30, 15 * 60 + 55);
    return `${dates[ti]} ${pad(Math.floor(minute / 60), 2)}:${pad(minute % 60, 2)}:${pad(rng.int(0, 59), 2)}+08`;
  };
  // Only a currency already used has cash to withdraw.
  const moveCash = (ti: number, direction: 'deposit' | 'withdrawal', currency: CurrencyCode, cents: number) => {
    cash[currency] += direction === 'deposit' ? cents : -cents;
    used.add(currency);
    const method =
      direction === 'deposit'
        ? rng.weighted(['fps', 'bank_transfer', 'edda', 'cheque'], [40, 35, 20, 5])
        : rng.weighted(['fps', 'bank_transfer', 'cheque'], [45, 45, 10]);
    batch.money_movement.push(
      `${ids.moneyMovement++}\t${accountId}\t${customerId}\t${direction}\t${currency}\t${money(cents)}\t${method}\t${stamp(ti, 'cash')}`,
    );
  };
  const trade = (ti: number, security: PricedSecurity, side: 'buy' | 'sell', quantity: number, price: number) => {
    const amountCents = Math.round(quantity * price * 100);
    const feeCents = feeFor(security, quantity, amountCents);
    const settleTi = ti + (security.market === 'HK' ? 2 : 1);
    batch.trade.push(
      `${ids.trade++}\t${accountId}\t${customerId}\t${security.id}\t${side}\t${quantity}\t${price.toFixed(3)}\t${money(amountCents)}\t${money(feeCents)}\t${security.currency}\t${stamp(ti, security.market)}\t${dates[settleTi]}`,
    );
    used.add(security.currency);
    return { amountCents, feeCents };
  };
  const transfer = (ti: number, security: PricedSecurity, direction: 'in' | 'out', quantity: number) => {
    batch.stock_transfer.push(
      `${ids.transfer++}\t${accountId}\t${customerId}\t${security.id}\t${direction}\t${quantity}\t${rng.pick(COUNTERPARTY_BROKERS)}\t${stamp(ti, 'cash')}`,
    );
  };
  const priceOn = (security: PricedSecurity, ti: number) => roundToTick(security.closes[ti]! * (1 + 0.004 * rng.normal()), security.market);
  const sell = (ti: number, security: PricedSecurity, quantity: number) => {
    const { amountCents, feeCents } = trade(ti, security, 'sell', quantity, priceOn(security, ti));
    cash[security.currency] += amountCents - feeCents;
  };
  const addPosition = (security: PricedSecurity, quantity: number, costCents: number) => {
    const position = positions.get(security.id) ?? { security, quantity: 0, costCents: 0 };
    position.quantity += quantity;
    position.costCents += costCents;
    positions.set(security.id, position);
  };
  const available = (currency: CurrencyCode) => cash[currency] + (currency === 'HKD' ? marginLimitCents : 0);

  if (!unfunded) {
    const span = endTi - startTi;
    const intensity = rng.weighted([1, 5, 14, 40], [30, 40, 24, 6]);
    const eventCount = Math.max(1, Math.round((intensity * Math.max(span, 20)) / 260));
    const eventDays: number[] = [];
    for (let i = 0; i < eventCount; i++) eventDays.push(rng.int(startTi + 1, endTi));
    eventDays.sort((a, b) => a - b);

    moveCash(startTi, 'deposit', 'HKD', depositCents(rng, 'HKD') * 2);
    for (const currency of currencies)
      if (currency !== 'HKD') moveCash(Math.min(startTi + rng.int(0, 10), endTi), 'deposit', currency, depositCents(rng, currency));

    for (const ti of eventDays) {
      const roll = rng.next();
      if (roll < 0.1) {
        const currency = rng.chance(0.7) ? 'HKD' : rng.pick(currencies);
        moveCash(ti, 'deposit', currency, depositCents(rng, currency));
      } else if (roll < 0.16) {
        const currency = rng.pick(currencies);
        const cents = Math.floor((cash[currency] * (0.2 + rng.next() * 0.6)) / 10_000) * 10_000;
        if (cents >= 100_000) moveCash(ti, 'withdrawal', currency, cents);
      } else if (roll < 0.175) {
        const security = rng.pick(favourites);
        const quantity = security.lotSize * rng.int(1, security.lotSize === 1 ? 200 : 20);
        addPosition(security, quantity, Math.round(quantity * security.closes[ti]! * 100));
        used.add(security.currency);
        transfer(ti, security, 'in', quantity);
      } else if (roll < 0.185 && positions.size > 0) {
        const position = rng.pick([...positions.values()]);
        positions.delete(position.security.id);
        transfer(ti, position.security, 'out', position.quantity);
      } else if (positions.size > 0 && rng.chance(0.42)) {
        const position = rng.pick([...positions.values()]);
        const { security } = position;
        const lots = Math.floor(position.quantity / security.lotSize);
        let quantity = lots <= 1 ? position.quantity : security.lotSize * Math.max(1, Math.round(lots * (0.3 + rng.next() * 0.7)));
        if (quantity > position.quantity) quantity = position.quantity;
        sell(ti, security, quantity);
        position.costCents = Math.round((position.costCents * (position.quantity - quantity)) / position.quantity);
        position.quantity -= quantity;
        if (position.quantity === 0) positions.delete(security.id);
      } else {
        const security = rng.pick(favourites);
        const price = priceOn(security, ti);
        const budget = available(security.currency) * (0.15 + rng.next() * 0.45);
        const lots = Math.floor(budget / (price * security.lotSize * 100 * 1.002));
        if (lots < 1) continue;
        const quantity = lots * security.lotSize;
        const amountCents = Math.round(quantity * price * 100);
        if (amountCents + feeFor(security, quantity, amountCents) > available(security.currency)) continue;
        const { feeCents } = trade(ti, security, 'buy', quantity, price);
        cash[security.currency] -= amountCents + feeCents;
        addPosition(security, quantity, amountCents);
      }
    }

    if (status === 'closed') {
      // Liquidate: sell or transfer out every position, repay any margin loan, withdraw the rest.
      for (const position of positions.values()) {
        if (rng.chance(0.3)) transfer(endTi, position.security, 'out', position.quantity);
        else sell(endTi, position.security, position.quantity);
      }
      positions.clear();
      for (const currency of used) {
        if (cash[currency] < 0) moveCash(endTi, 'deposit', currency, Math.ceil(-cash[currency] / 10_000) * 10_000);
        if (cash[currency] > 0) moveCash(endTi, 'withdrawal', currency, cash[currency]);
      }
    }
  }

  batch.customer.push(
    [
      customerId,
      context.corpId,
      staffMember.id,
      `C${pad(customerId, 8)}`,
      channel,
      copyText(nameCn),
      copyText(nameEn),
      copyText(searchTerms(nameCn)),
      male ? 'M' : 'F',
      phone,
      phoneDigits,
      copyText(email),
      document.type,
      masked,
      last4,
      documentExpiry ?? '\\N',
      birthday,
      riskLevel,
      riskAssessedOn,
      status,
      openDate,
      closedDate ?? '\\N',
      copyText(textArrayLiteral(tags)),
      copyText(remark),
    ].join('\t'),
  );
  batch.account.push(
    `${accountId}\t${context.corpId}\t${customerId}\t8${pad(customerId, 8)}\t${margin ? 'margin' : 'cash'}\t${status === 'closed' ? 'closed' : 'active'}\t${openDate}`,
  );
  for (const currency of used) batch.cash_balance.push(`${accountId}\t${currency}\t${money(cash[currency])}`);
  for (const position of positions.values()) {
    const avgCost = position.costCents / 100 / position.quantity;
    batch.holding.push(`${accountId}\t${customerId}\t${position.security.id}\t${position.quantity}\t${avgCost.toFixed(4)}`);
  }
}

function tiOnOrAfter(context: GeneratorContext, day: number): number {
  const days = context.tradingDays;
  if (day <= days[0]!) return 0;
  let lo = 0;
  let hi = context.lastTi;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (days[mid]! < day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function depositCents(rng: Prng, currency: CurrencyCode): number {
  const median = currency === 'HKD' ? 40_000 : currency === 'USD' ? 5_000 : 30_000;
  return Math.max(1000, Math.round(rng.logNormal(median, 0.9) / 100) * 100) * 100;
}

/** Roughly as HK brokers charge; never below the market's minimum. */
function feeFor(security: SecuritySeed, quantity: number, amountCents: number): number {
  if (security.market === 'HK') return Math.max(5_000, Math.round(amountCents * 0.0013));
  if (security.market === 'US') return Math.max(199, Math.round(quantity * 0.49));
  return Math.max(500, Math.round(amountCents * 0.0008));
}
