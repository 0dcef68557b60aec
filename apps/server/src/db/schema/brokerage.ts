import { sql } from 'drizzle-orm';
import {
  bigint,
  type ExtraConfigColumn,
  bigserial,
  date,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { corpIdColumn, staff, staffIdColumn } from './platform';

/** Money numeric(18,2) in the row's currency, prices numeric(18,4), whole shares; detail rows carry `customer_id`. */
/** Alike in every table that has them (see corpIdColumn). */
export function customerIdColumn() {
  return bigint('customer_id', { mode: 'number' })
    .notNull()
    .references(() => customers.id);
}

function accountIdColumn() {
  return bigint('account_id', { mode: 'number' })
    .notNull()
    .references(() => accounts.id);
}

function securityIdColumn() {
  return integer('security_id')
    .notNull()
    .references(() => securities.id);
}

const textArray = (name: string) =>
  text(name)
    .array()
    .notNull()
    .default(sql`'{}'::text[]`);

/**
 * A history table partitioned by month of `at` (ADR 0053): every unique key must contain it. The id makes the
 * customer's order total for the timeline's keyset pages (ADR 0040); one row per reference and time (the importer
 * keeps one per reference).
 */
function historyKeys(
  name: string,
  table: Record<'id' | 'accountId' | 'customerId' | 'externalRef', ExtraConfigColumn>,
  at: ExtraConfigColumn,
) {
  return [
    primaryKey({ name: `${name}_pkey`, columns: [table.id, at] }),
    index(`${name}_customer_time_idx`).on(table.customerId, at.desc(), table.id.desc()),
    uniqueIndex(`${name}_account_ref_uq`)
      .on(table.accountId, table.externalRef, at)
      .where(sql`external_ref is not null`),
  ];
}

export const customers = pgTable(
  'customer',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    corpId: corpIdColumn(),
    staffId: staffIdColumn(),
    /** The back office's customer number: the importer's natural key. */
    customerNo: text('customer_no').notNull(),
    channel: text('channel').notNull(),
    nameCn: text('name_cn').notNull(),
    nameEn: text('name_en').notNull(),
    /** `searchTerms(nameCn)`, null until computed (migration 0029, ADR 0046). */
    searchTerms: text('search_terms'),
    gender: text('gender'),
    /** As displayed, e.g. `+852 9123 4567`. */
    phone: text('phone'),
    /** Digits only (`85291234567`), for search by any part of the phone. */
    phoneDigits: text('phone_digits'),
    email: text('email'),
    /** hkid | passport | mainland_id */
    idDocType: text('id_doc_type').notNull(),
    /** Never the full number: `maskIdNumber` of @broker/domain (`A1**4563`). */
    idDocMasked: text('id_doc_masked').notNull(),
    idDocLast4: text('id_doc_last4').notNull(),
    idDocExpiry: date('id_doc_expiry'),
    birthday: date('birthday'),
    /** 1 (conservative) … 5 (aggressive). */
    riskLevel: integer('risk_level').notNull(),
    riskAssessedOn: date('risk_assessed_on'),
    /** active | dormant | closed */
    status: text('status').notNull().default('active'),
    openDate: date('open_date').notNull(),
    closedDate: date('closed_date'),
    tags: textArray('tags'),
    remark: text('remark'),
    /** Optimistic locking: every update bumps it and checks the old value. */
    version: integer('version').notNull().default(1),
    // Denormalised summary, recomputed by refreshCustomerSummaries after every bulk change.
    totalAssetsHkd: numeric('total_assets_hkd', { precision: 20, scale: 2 }).notNull().default('0'),
    cashHkd: numeric('cash_hkd', { precision: 20, scale: 2 }).notNull().default('0'),
    marketValueHkd: numeric('market_value_hkd', { precision: 20, scale: 2 }).notNull().default('0'),
    lastTradeDate: date('last_trade_date'),
    /** Markets of the positions held (quantity > 0), sorted: the markets / hasHolding filters read no holdings. */
    heldMarkets: textArray('held_markets'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('customer_corp_no_uq').on(table.corpId, table.customerNo),
    index('customer_name_cn_trgm').using('gin', table.nameCn.op('gin_trgm_ops')),
    index('customer_name_en_trgm').using('gin', table.nameEn.op('gin_trgm_ops')),
    index('customer_phone_trgm').using('gin', table.phoneDigits.op('gin_trgm_ops')),
    // staff_id last: the identity-document arm reads its own book's few candidates (migration 0015).
    index('customer_id_last4_idx').on(table.corpId, table.idDocLast4, table.staffId),
    index('customer_staff_open_idx').on(table.staffId, table.openDate.desc().nullsFirst(), table.id),
    index('customer_staff_last_trade_idx').on(table.staffId, table.lastTradeDate.desc().nullsLast(), table.id),
    index('customer_staff_status_idx').on(table.staffId, table.status),
    // One status in each list order (migration 0018): a rare status sits at one end of the order.
    index('customer_staff_status_assets_idx').on(table.staffId, table.status, table.totalAssetsHkd.desc(), table.id),
    index('customer_staff_status_open_idx').on(table.staffId, table.status, table.openDate.desc(), table.id),
    index('customer_staff_status_last_trade_idx').on(table.staffId, table.status, table.lastTradeDate.desc().nullsLast(), table.id),
    // For the negative_equity MOT rule (migration 0027).
    index('customer_negative_equity_idx')
      .on(table.id)
      .where(sql`${table.totalAssetsHkd} < 0`),
  ],
);

export const accounts = pgTable(
  'account',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    corpId: corpIdColumn(),
    customerId: customerIdColumn(),
    accountNo: text('account_no').notNull(),
    /** cash | margin */
    type: text('type').notNull(),
    /** active | closed */
    status: text('status').notNull().default('active'),
    openDate: date('open_date').notNull(),
  },
  (table) => [uniqueIndex('account_corp_no_uq').on(table.corpId, table.accountNo), index('account_customer_idx').on(table.customerId)],
);

export const cashBalances = pgTable(
  'cash_balance',
  {
    accountId: accountIdColumn(),
    currency: text('currency').notNull(),
    /** Negative only on margin accounts (a loan). */
    balance: numeric('balance', { precision: 18, scale: 2 }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.currency] })],
);

export const securities = pgTable('security', {
  id: serial('id').primaryKey(),
  /** e.g. 0700.HK, AAPL, 600519.SH */
  symbol: text('symbol').notNull().unique(),
  /** HK | US | SH | SZ */
  market: text('market').notNull(),
  nameCn: text('name_cn').notNull(),
  /** Hong Kong Traditional (migration 0031); null until named, when readers see nameCn. */
  nameHk: text('name_hk'),
  nameEn: text('name_en').notNull(),
  currency: text('currency').notNull(),
  lotSize: integer('lot_size').notNull(),
  lastPrice: numeric('last_price', { precision: 18, scale: 4 }).notNull(),
  prevClose: numeric('prev_close', { precision: 18, scale: 4 }).notNull(),
  priceDate: date('price_date').notNull(),
});

export const holdings = pgTable(
  'holding',
  {
    accountId: accountIdColumn(),
    customerId: customerIdColumn(),
    securityId: securityIdColumn(),
    quantity: bigint('quantity', { mode: 'number' }).notNull(),
    avgCost: numeric('avg_cost', { precision: 18, scale: 4 }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.securityId] }), index('holding_customer_idx').on(table.customerId)],
);

export const trades = pgTable(
  'trade',
  {
    id: bigserial('id', { mode: 'number' }),
    accountId: accountIdColumn(),
    customerId: customerIdColumn(),
    securityId: securityIdColumn(),
    /** buy | sell */
    side: text('side').notNull(),
    quantity: bigint('quantity', { mode: 'number' }).notNull(),
    price: numeric('price', { precision: 18, scale: 4 }).notNull(),
    /** quantity × price, in `currency`. */
    amount: numeric('amount', { precision: 18, scale: 2 }).notNull(),
    fee: numeric('fee', { precision: 18, scale: 2 }).notNull(),
    currency: text('currency').notNull(),
    tradedAt: timestamp('traded_at', { withTimezone: true }).notNull(),
    settleDate: date('settle_date').notNull(),
    /** The back office's id; null for generated rows. */
    externalRef: text('external_ref'),
  },
  (table) => historyKeys('trade', table, table.tradedAt),
);

export const moneyMovements = pgTable(
  'money_movement',
  {
    id: bigserial('id', { mode: 'number' }),
    accountId: accountIdColumn(),
    customerId: customerIdColumn(),
    /** deposit | withdrawal */
    direction: text('direction').notNull(),
    currency: text('currency').notNull(),
    /** Always positive; the direction gives the sign. */
    amount: numeric('amount', { precision: 18, scale: 2 }).notNull(),
    /** fps | bank_transfer | cheque | edda */
    method: text('method').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    externalRef: text('external_ref'),
  },
  // Migration 0024's customer-time index also INCLUDEs (amount, currency), which Drizzle cannot say: the
  // large-movement test from the index.
  (table) => historyKeys('money_movement', table, table.occurredAt),
);

export const stockTransfers = pgTable(
  'stock_transfer',
  {
    id: bigserial('id', { mode: 'number' }),
    accountId: accountIdColumn(),
    customerId: customerIdColumn(),
    securityId: securityIdColumn(),
    /** in | out */
    direction: text('direction').notNull(),
    quantity: bigint('quantity', { mode: 'number' }).notNull(),
    /** The other broker or custodian. */
    counterparty: text('counterparty').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    externalRef: text('external_ref'),
  },
  (table) => historyKeys('stock_transfer', table, table.occurredAt),
);

/** Units of `currency` per 1 HKD: amount_in_currency = amount_hkd × rate (docs/spec.md §9). */
export const exchangeRates = pgTable(
  'exchange_rate',
  {
    currency: text('currency').notNull(),
    rateDate: date('rate_date').notNull(),
    rate: numeric('rate', { precision: 18, scale: 8 }).notNull(),
    /** generator | import | … */
    source: text('source').notNull(),
  },
  (table) => [primaryKey({ columns: [table.currency, table.rateDate] })],
);

/** One customer per contact and one contact per customer, per corp. */
export const kycBindings = pgTable(
  'kyc_binding',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    corpId: corpIdColumn(),
    externalUserId: text('external_user_id').notNull(),
    customerId: customerIdColumn(),
    boundByStaffId: integer('bound_by_staff_id')
      .notNull()
      .references(() => staff.id),
    boundAt: timestamp('bound_at', { withTimezone: true }).notNull().defaultNow(),
    /** WeCom reported the contact and the manager disconnected (ADR 0019). */
    staleAt: timestamp('stale_at', { withTimezone: true }),
    /** del_follow_user | del_external_contact, with staleAt. */
    staleReason: text('stale_reason'),
    /** WeCom's CreateTime of the last change applied: an older event arriving late changes nothing. */
    contactChangedAt: timestamp('contact_changed_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('kyc_binding_contact_uq').on(table.corpId, table.externalUserId),
    uniqueIndex('kyc_binding_customer_uq').on(table.corpId, table.customerId),
  ],
);

/**
 * Clients and total assets per (staff, channel, status, held markets), for a whole book's header without
 * reading its customers. Kept only by statement triggers on `customer` (migration 0006) in the writer's
 * transaction, so no code path can forget it.
 */
export const staffBookSummary = pgTable(
  'staff_book_summary',
  {
    corpId: integer('corp_id').notNull(),
    staffId: integer('staff_id').notNull(),
    channel: text('channel').notNull(),
    status: text('status').notNull(),
    /** The markets and hasHolding filters are summed from here too (migration 0012). */
    heldMarkets: textArray('held_markets'),
    clients: integer('clients').notNull(),
    totalAssetsHkd: numeric('total_assets_hkd', { precision: 24, scale: 2 }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.staffId, table.corpId, table.channel, table.status, table.heldMarkets] })],
);

/** Bumped by triggers on `customer`, `kyc_binding` and `account` (migration 0013) in the writer's transaction. */
export const staffBookVersion = pgTable(
  'staff_book_version',
  {
    corpId: integer('corp_id').notNull(),
    staffId: integer('staff_id').notNull(),
    version: bigint('version', { mode: 'number' }).notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.corpId, table.staffId] })],
);

/**
 * Which customers each version bump touched (migration 0022), for the book index to catch up (ADR 0035); null:
 * the whole book. Written by the same triggers, which drop entries 1000 versions old.
 */
export const staffBookChange = pgTable(
  'staff_book_change',
  {
    corpId: integer('corp_id').notNull(),
    staffId: integer('staff_id').notNull(),
    version: bigint('version', { mode: 'number' }).notNull(),
    customerId: bigint('customer_id', { mode: 'number' }),
  },
  (table) => [index('staff_book_change_book_idx').on(table.corpId, table.staffId, table.version)],
);
