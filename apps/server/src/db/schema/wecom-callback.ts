import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { corps } from './platform';

/** Each WeCom callback event once, however often WeCom retries it and whichever replica it reaches. */
export const wecomCallbackEvents = pgTable(
  'wecom_callback_event',
  {
    corpId: integer('corp_id')
      .notNull()
      .references(() => corps.id),
    /** WeCom's fields that identify one event. */
    eventKey: text('event_key').notNull(),
    changeType: text('change_type').notNull(),
    wecomUserId: text('wecom_user_id'),
    externalUserId: text('external_user_id'),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    outcome: text('outcome').notNull(),
  },
  (table) => [primaryKey({ columns: [table.corpId, table.eventKey] }), index('wecom_callback_event_received_idx').on(table.receivedAt)],
);
