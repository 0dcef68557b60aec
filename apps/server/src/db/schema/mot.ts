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

/**
 * One row per (rule, customer, fact): the unique key is what makes a rule fire exactly once,
 * even when two replicas evaluate it at the same moment (INSERT … ON CONFLICT DO NOTHING).
 */
export const motEvents = pgTable(
  'mot_event',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    corpId: corpIdColumn(),
    /** `motRuleSchema` of the contract: birthday … risk_expiry, contact_removed, follow_up, negative_equity, concentration, particulars_changed_withdrawal, vulnerable_client */
    rule: text('rule').notNull(),
    customerId: customerIdColumn(),
    staffId: staffIdColumn(),
    /** Identifies the triggering fact within the rule, e.g. `2026` for a birthday or a movement id. */
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
     * Copy of the customer's `name_en`, the to-do list's sort key: with it in
     * `mot_event_todo_idx` a page is read in order from the index instead of joining and sorting a
     * whole day's events (18,000 for a heavy manager). The MOT engine writes it from the customer row
     * its rules read; a trigger fills it for any other insert, another rewrites it when the customer
     * is renamed (migrations 0009, 0010).
     */
    customerNameEn: text('customer_name_en').notNull(),
    /** `facts.amountHkd` of a large deposit/withdrawal (else null): compared with the manager's threshold from the index alone. */
    cashIoHkd: numeric('cash_io_hkd').generatedAlwaysAs(
      sql`CASE WHEN rule IN ('large_deposit', 'large_withdrawal') THEN (facts ->> 'amountHkd')::numeric END`,
    ),
    /** When the event was last snoozed (put off to a later day, `mot_event_snooze`); null if never: the "snoozed" mark. */
    snoozedAt: timestamp('snoozed_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('mot_event_fact_uq').on(table.rule, table.customerId, table.factKey),
    index('mot_event_staff_status_due_idx').on(table.staffId, table.status, table.dueDate),
    index('mot_event_customer_idx').on(table.customerId, table.dueDate),
  ],
);

/**
 * Pending (new or seen) MOT events per manager, due day and rule, kept exact by statement-level
 * triggers on mot_event (migration 0010) in each writer's transaction. The date strip, the task
 * count and the to-do total add these up instead of counting a heavy manager's 18,000 events of a
 * day. Large deposits/withdrawals are not in it: whether they show depends on the manager's
 * current threshold, so they are counted live (a few hundred rows at most).
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
 * One row per daily MOT sweep (Hong Kong day). A replica runs the day's batch only while holding
 * an advisory lock and only if the day's row is not finished; a run that died half-way (lock gone,
 * no finished_at) is taken over by the next tick. Events stay exactly-once regardless, thanks to
 * mot_event_fact_uq.
 */
export const motSweepRuns = pgTable('mot_sweep_run', {
  runDate: date('run_date').primaryKey(),
  /** host:pid of the process that ran (or is running) the batch. */
  owner: text('owner').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  /** Events inserted, per rule. */
  inserted: jsonb('inserted'),
  elapsedMs: integer('elapsed_ms'),
});

/**
 * Every snooze of an MOT event (issue 24, ADR 0041): who put it off, when, from which due day to which,
 * and why (a preset reason, with a note for `other`). The event itself carries the new due day.
 */
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
 * A version per manager of everything their ranked MOT day is computed from (migration 0028): bumped by
 * triggers on their events, their clients' contact records and their threshold. The server serves a
 * ranked day from memory while this (and the book's version) is what it was computed at (ADR 0041).
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
