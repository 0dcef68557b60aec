import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { corps, staff } from './platform';

/** Who changed what: `before`/`after` hold only the fields that changed. A null actor is the system. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }),
    corpId: integer('corp_id').references(() => corps.id),
    actorStaffId: integer('actor_staff_id').references(() => staff.id),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // Partitioned by month (ADR 0053): every unique key must contain `at`.
    primaryKey({ name: 'audit_log_pkey', columns: [table.id, table.at] }),
    index('audit_log_entity_idx').on(table.entity, table.entityId, table.at),
    index('audit_log_actor_idx').on(table.actorStaffId, table.at),
    // For the timeline: the customer is only in the JSON (migration 0024).
    index('audit_log_kyc_customer_idx')
      .on(sql`(coalesce(${table.after}, ${table.before}) ->> 'customerId')`, table.at.desc(), table.id.desc())
      .where(sql`${table.entity} = 'kyc_binding'`),
  ],
);
