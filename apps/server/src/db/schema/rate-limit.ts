import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** One fixed-window counter per (limit, subject), shared by every replica; idle rows are swept after a day. */
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
