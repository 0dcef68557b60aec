import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { corpIdColumn, staffIdColumn } from './platform';
import { customers } from './brokerage';

/** Shown only while the client is in their book (ADR 0049). */
export const staffPinnedClients = pgTable(
  'staff_pinned_client',
  {
    corpId: corpIdColumn(),
    staffId: staffIdColumn(),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    pinnedAt: timestamp('pinned_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ name: 'staff_pinned_client_pk', columns: [table.staffId, table.customerId] })],
);

/** kind client (value: customer id) or search (value: keyword). */
export const staffRecents = pgTable(
  'staff_recent',
  {
    corpId: corpIdColumn(),
    staffId: staffIdColumn(),
    kind: text('kind').notNull().$type<'client' | 'search'>(),
    value: text('value').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ name: 'staff_recent_pk', columns: [table.staffId, table.kind, table.value] }),
    index('staff_recent_used_idx').on(table.staffId, table.kind, table.usedAt.desc()),
    check('staff_recent_kind_ck', sql`${table.kind} IN ('client', 'search')`),
  ],
);

/** The search request's filters and sort, as the contract checked them. */
export const staffSavedFilters = pgTable(
  'staff_saved_filter',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    corpId: corpIdColumn(),
    staffId: staffIdColumn(),
    name: text('name').notNull(),
    filters: jsonb('filters').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('staff_saved_filter_name_uq').on(table.staffId, table.name)],
);
