import { sql } from 'drizzle-orm';
import type { AppLanguage } from '@broker/contract';
import {
  bigserial,
  boolean,
  check,
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

/** Functions, so each table gets a column of its own; declarations, so tables above them can use them. */
export function corpIdColumn() {
  return integer('corp_id')
    .notNull()
    .references(() => corps.id);
}

export function staffIdColumn() {
  return integer('staff_id')
    .notNull()
    .references(() => staff.id);
}

export const corps = pgTable('corp', {
  id: serial('id').primaryKey(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  wecomCorpId: text('wecom_corp_id').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const staff = pgTable(
  'staff',
  {
    id: serial('id').primaryKey(),
    corpId: corpIdColumn(),
    wecomUserId: text('wecom_user_id').notNull(),
    name: text('name').notNull(),
    email: text('email'),
    mobile: text('mobile'),
    position: text('position'),
    /** branch | online | wealth | ifa; customers inherit it. */
    channel: text('channel').notNull().default('branch'),
    onlineStaff: boolean('online_staff').notNull().default(true),
    bd: boolean('bd').notNull().default(true),
    heco: boolean('heco').notNull().default(false),
    defaultCurrency: text('default_currency').notNull().default('HKD'),
    motFold: boolean('mot_fold').notNull().default(false),
    /** Large-movement threshold for MOT, in HKD. */
    minCashIo: numeric('min_cash_io', { precision: 18, scale: 2 }).notNull().default('100000'),
    /** No MOT cards pushed into WeCom (ADR 0042). */
    motPushOptOut: boolean('mot_push_opt_out').notNull().default(false),
    /** Their MOT cards are written in it (ADR 0042). */
    language: text('language').notNull().default('zh-CN').$type<AppLanguage>(),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('staff_corp_wecom_user_uq').on(table.corpId, table.wecomUserId),
    check('staff_language_ck', sql`${table.language} IN ('zh-CN', 'zh-HK', 'en')`),
  ],
);

/** Only SHA-256s of the token and of its browser's binding cookie are kept (ADR 0012). */
export const authSessions = pgTable(
  'auth_session',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tokenHash: text('token_hash').notNull().unique(),
    staffId: staffIdColumn(),
    corpId: corpIdColumn(),
    agentCode: text('agent_code').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** Null only for sessions before migration 0019 (refused). */
    bindingHash: text('binding_hash'),
  },
  (table) => [
    index('auth_session_staff_idx').on(table.staffId),
    index('auth_session_expires_idx').on(table.expiresAt),
    index('auth_session_binding_idx').on(table.bindingHash),
  ],
);

/** A sign-in under way (ADR 0011): the SHA-256 of its browser's state cookie, the agent, a short life; used once. */
export const signInAttempts = pgTable(
  'sign_in_attempt',
  {
    stateHash: text('state_hash').primaryKey(),
    corpId: corpIdColumn(),
    agentCode: text('agent_code').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('sign_in_attempt_expires_idx').on(table.expiresAt)],
);

/** Shared by every replica so WeCom's rate limits see one client. */
export const wecomCredentials = pgTable(
  'wecom_credential',
  {
    corpId: corpIdColumn(),
    agentCode: text('agent_code').notNull(),
    kind: text('kind').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    fetchedAt: timestamp('fetched_at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
  },
  (table) => [primaryKey({ columns: [table.corpId, table.agentCode, table.kind] })],
);
