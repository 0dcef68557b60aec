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
 * The contact log (migration 0023, ADR 0038, docs/contact-log.md): one row per version of a record
 * of how a client manager reached a client. Until migration 0023 this was MOT's `service_record`
 * (same rows, same ids). Rows are never deleted and a locked or superseded version never changes
 * what it says: triggers refuse both, whoever asks (migration 0023).
 */
export const contactRecords = pgTable(
  'contact_record',
  {
    /** This version's id. */
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    corpId: corpIdColumn(),
    customerId: customerIdColumn(),
    /** Who wrote this version. */
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
    /** When the contact happened. */
    servedAt: timestamp('served_at', { withTimezone: true }).notNull(),
    /** When this version was written. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The first version's id, shared by every version of the record. The contact module draws a first
     * version's id before inserting it; an insert that leaves thread_id out gets the row's own id
     * (trigger `contact_record_fills_thread`).
     */
    threadId: bigint('thread_id', { mode: 'number' })
      .notNull()
      .references((): AnyPgColumn => contactRecords.id),
    /** 1 for the record as first written; a correction adds one. */
    version: integer('version').notNull().default(1),
    /** In-place edits of this version by its author before it locked (each audited): the revise call's optimistic check. */
    edits: integer('edits').notNull().default(0),
    /** The version that replaced this one; set once, with supersededAt, the only change a locked version takes. */
    supersededBy: bigint('superseded_by', { mode: 'number' }).references((): AnyPgColumn => contactRecords.id),
    supersededAt: timestamp('superseded_at', { withTimezone: true }),
    /** Why this version replaced the previous one (corrections only). */
    correctionReason: text('correction_reason'),
    /** The record (thread id) whose follow-up this one completed. */
    followsRecordId: bigint('follows_record_id', { mode: 'number' }).references((): AnyPgColumn => contactRecords.id),
    /** From then on the version's content is fixed (CONTACT_RECORD_LOCK_HOURS after it was written). */
    locksAt: timestamp('locks_at', { withTimezone: true }).notNull(),
    /** The app's id for the attempt that wrote it: a retry with the same id finds this row instead of writing another. */
    requestId: uuid('request_id'),
  },
  (table) => [
    index('contact_record_staff_time_idx').on(table.staffId, table.servedAt.desc()),
    index('contact_record_customer_time_idx').on(table.customerId, table.servedAt.desc()),
    index('contact_record_customer_latest_idx')
      .on(table.customerId, table.servedAt.desc(), table.id.desc())
      .where(sql`superseded_by is null`),
    index('contact_record_thread_idx').on(table.threadId, table.version),
    uniqueIndex('contact_record_request_uq').on(table.staffId, table.requestId).where(sql`request_id is not null`),
    index('contact_record_note_trgm').using('gin', table.note.op('gin_trgm_ops')),
  ],
);

/**
 * The MOT events a record served (several per record). `recordId` is the record's thread id (its
 * first version), so corrections keep the links. Never updated or deleted (migration 0023).
 */
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
