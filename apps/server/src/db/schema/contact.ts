import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { corpIdColumn, staffIdColumn } from './platform';
import { customerIdColumn } from './brokerage';
import { motEvents } from './mot';

/**
 * One row per version of a contact record (ADR 0038, docs/contact-log.md); once MOT's `service_record`, same
 * ids. Triggers refuse deleting a row or changing a locked or superseded version.
 */
export const contactRecords = pgTable(
  'contact_record',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    corpId: corpIdColumn(),
    customerId: customerIdColumn(),
    staffId: staffIdColumn(),
    /** phone | wecom | meeting | email | other (contract `contactChannelSchema`) */
    channel: text('channel').notNull(),
    /** service | review | recommendation | care | document | follow_up | complaint | other (contract `contactPurposeSchema`) */
    purpose: text('purpose').notNull(),
    note: text('note').notNull(),
    outcome: text('outcome'),
    nextStep: text('next_step'),
    /** A Hong Kong day: a pending `follow_up` MOT event is due that day. */
    nextStepDate: date('next_step_date'),
    /** Why a recommendation suited the client (required for purpose `recommendation`). */
    suitability: text('suitability'),
    servedAt: timestamp('served_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The first version's id, shared by every version; left out, a trigger fills the row's own id. */
    threadId: bigint('thread_id', { mode: 'number' })
      .notNull()
      .references((): AnyPgColumn => contactRecords.id),
    /** 1 for the record as first written; a correction adds one. */
    version: integer('version').notNull().default(1),
    /** In-place edits before it locked (each audited): the revise call's optimistic check. */
    edits: integer('edits').notNull().default(0),
    /** Set once, with supersededAt: the only change a locked version takes. */
    supersededBy: bigint('superseded_by', { mode: 'number' }).references((): AnyPgColumn => contactRecords.id),
    supersededAt: timestamp('superseded_at', { withTimezone: true }),
    /** Why this version replaced the previous one (corrections only). */
    correctionReason: text('correction_reason'),
    /** The record (thread id) whose follow-up this one completed. */
    followsRecordId: bigint('follows_record_id', { mode: 'number' }).references((): AnyPgColumn => contactRecords.id),
    /** CONTACT_RECORD_LOCK_HOURS after it was written; content fixed from then on. */
    locksAt: timestamp('locks_at', { withTimezone: true }).notNull(),
    /** A retry with the same id finds this row instead of writing another. */
    requestId: uuid('request_id'),
  },
  (table) => [
    index('contact_record_staff_time_idx').on(table.staffId, table.servedAt.desc()),
    index('contact_record_customer_time_idx').on(table.customerId, table.servedAt.desc()),
    index('contact_record_customer_latest_idx')
      .on(table.customerId, table.servedAt.desc(), table.id.desc())
      .where(sql`superseded_by is null`),
    index('contact_record_thread_idx').on(table.threadId, table.version),
    uniqueIndex('contact_record_request_uq')
      .on(table.staffId, table.requestId)
      .where(sql`request_id is not null`),
    index('contact_record_note_trgm').using('gin', table.note.op('gin_trgm_ops')),
  ],
);

/** The MOT events a record served, by the record's thread id so corrections keep the links; never changed. */
export const contactRecordEvents = pgTable(
  'contact_record_event',
  {
    recordId: bigint('record_id', { mode: 'number' })
      .notNull()
      .references(() => contactRecords.id),
    motEventId: bigint('mot_event_id', { mode: 'number' })
      .notNull()
      .references(() => motEvents.id),
  },
  (table) => [primaryKey({ columns: [table.recordId, table.motEventId] }), index('contact_record_event_event_idx').on(table.motEventId)],
);
