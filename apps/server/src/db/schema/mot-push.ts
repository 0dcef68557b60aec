import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { corpIdColumn, staffIdColumn } from './platform';

/**
 * One WeCom textcard per manager per batch of new events (ADR 0042). Replicas claim due rows with
 * `FOR UPDATE SKIP LOCKED`; the body is fixed before the first attempt, so WeCom's duplicate check drops a repeat.
 */
export const motPushes = pgTable(
  'mot_push',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    corpId: corpIdColumn(),
    staffId: staffIdColumn(),
    /** pending (later events join it) | sending | retry (body fixed, waiting to resend) | sent | skipped | failed */
    status: text('status').notNull().default('pending').$type<'pending' | 'sending' | 'retry' | 'sent' | 'skipped' | 'failed'>(),
    reason: text('reason').notNull().$type<'sweep' | 'import' | 'threshold'>(),
    notBefore: timestamp('not_before', { withTimezone: true }).notNull().defaultNow(),
    /** Text, not jsonb: a resend must repeat its very bytes. */
    body: text('body'),
    attempts: integer('attempts').notNull().default(0),
    firstAttemptAt: timestamp('first_attempt_at', { withTimezone: true }),
    maybeDelivered: boolean('maybe_delivered').notNull().default(false),
    claimedBy: text('claimed_by'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    lastError: text('last_error'),
    msgid: text('msgid'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('mot_push_one_pending_uq')
      .on(table.staffId)
      .where(sql`${table.status} = 'pending'`),
    index('mot_push_due_idx')
      .on(table.notBefore)
      .where(sql`${table.status} IN ('pending', 'retry', 'sending')`),
    index('mot_push_staff_sent_idx')
      .on(table.staffId, table.sentAt.desc())
      .where(sql`${table.status} = 'sent'`),
  ],
);

/** Which card announced each event, once; push_id 0: none (too old, no longer new, not announced, opted out). */
export const motPushEvents = pgTable(
  'mot_push_event',
  {
    eventId: bigint('event_id', { mode: 'number' }).primaryKey(),
    pushId: bigint('push_id', { mode: 'number' }).notNull(),
  },
  (table) => [
    index('mot_push_event_push_idx')
      .on(table.pushId)
      .where(sql`${table.pushId} > 0`),
  ],
);
