import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { corpIdColumn, staffIdColumn } from './platform';
import { customerIdColumn } from './brokerage';

/** The unique (rule, customer, fact) makes a rule fire once, even from two replicas at the same moment. */
export const motEvents = pgTable(
  'mot_event',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    corpId: corpIdColumn(),
    /** `motRuleSchema` of the contract. */
    rule: text('rule').notNull(),
    customerId: customerIdColumn(),
    staffId: staffIdColumn(),
    /** The triggering fact within the rule, e.g. `2026` for a birthday or a movement id. */
    factKey: text('fact_key').notNull(),
    dueDate: date('due_date').notNull(),
    /** new | seen | handled */
    status: text('status').notNull().default('new'),
    /** Why it fired: the rule's inputs and the values that crossed its threshold. */
    facts: jsonb('facts').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    seenAt: timestamp('seen_at', { withTimezone: true }),
    handledAt: timestamp('handled_at', { withTimezone: true }),
    /**
     * The to-do list's sort key, so `mot_event_todo_idx` reads a page in order instead of sorting a whole day's
     * events. Written by the engine; triggers fill it for other inserts and follow renames (migrations 0009, 0010).
     */
    customerNameEn: text('customer_name_en').notNull(),
    /** A large movement's `facts.amountHkd`, compared with the manager's threshold from the index alone. */
    cashIoHkd: numeric('cash_io_hkd').generatedAlwaysAs(
      sql`CASE WHEN rule IN ('large_deposit', 'large_withdrawal') THEN (facts ->> 'amountHkd')::numeric END`,
    ),
    /** Last snoozed (`mot_event_snooze`); null if never. */
    snoozedAt: timestamp('snoozed_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('mot_event_fact_uq').on(table.rule, table.customerId, table.factKey),
    index('mot_event_staff_status_due_idx').on(table.staffId, table.status, table.dueDate),
    index('mot_event_customer_idx').on(table.customerId, table.dueDate),
  ],
);

/**
 * Pending MOT events per manager, due day and rule, kept exact by statement triggers (migration 0010) for the
 * date strip and counts. Large movements are counted live: they depend on the manager's current threshold.
 */
export const motPendingCounts = pgTable(
  'mot_pending_count',
  {
    staffId: integer('staff_id').notNull(),
    dueDate: date('due_date').notNull(),
    rule: text('rule').notNull(),
    corpId: integer('corp_id').notNull(),
    events: integer('events').notNull(),
    /** Of which still `new` (never opened). */
    unseen: integer('unseen').notNull(),
  },
  (table) => [primaryKey({ columns: [table.staffId, table.dueDate, table.rule, table.corpId] })],
);

/**
 * One row per daily sweep (Hong Kong day), run under an advisory lock until finished; a run that died half-way
 * is taken over by the next tick. mot_event_fact_uq keeps events exactly-once regardless.
 */
export const motSweepRuns = pgTable('mot_sweep_run', {
  runDate: date('run_date').primaryKey(),
  owner: text('owner').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  inserted: jsonb('inserted'),
  elapsedMs: integer('elapsed_ms'),
});

/** Every snooze of an MOT event (ADR 0041); the event itself carries the new due day. */
export const motEventSnoozes = pgTable(
  'mot_event_snooze',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    corpId: integer('corp_id').notNull(),
    eventId: bigint('event_id', { mode: 'number' })
      .notNull()
      .references(() => motEvents.id, { onDelete: 'cascade' }),
    staffId: integer('staff_id').notNull(),
    fromDate: date('from_date').notNull(),
    toDate: date('to_date').notNull(),
    reason: text('reason').notNull(),
    note: text('note'),
    snoozedAt: timestamp('snoozed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('mot_event_snooze_event_idx').on(table.eventId, table.id)],
);

/**
 * Bumped by triggers on a manager's events, their clients' contact records and their threshold (migration
 * 0028): a ranked day is served from memory while this and the book's version stand (ADR 0041).
 */
export const motRankVersion = pgTable(
  'mot_rank_version',
  {
    corpId: integer('corp_id').notNull(),
    staffId: integer('staff_id').notNull(),
    version: bigint('version', { mode: 'number' }).notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.corpId, table.staffId] })],
);
