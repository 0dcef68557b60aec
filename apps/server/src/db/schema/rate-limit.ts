import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One fixed-window counter per (limit, subject): every replica counts in the same row, so a limit
 * holds across processes. `subject` is a client address for sign-in, a staff id for KYC search.
 * A new window overwrites the row in place; rows idle for a day are swept.
 */
export const rateLimitCounters = pgTable(
  'rate_limit_counter',
  {
    bucket: text('bucket').notNull(),
    subject: text('subject').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    hits: integer('hits').notNull(),
  },
  (table) => [primaryKey({ columns: [table.bucket, table.subject] })],
);
