import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { StaffScope } from '../../http/caller';
import {
  asText,
  epochMs,
  float8,
  valueList,
  outerJoined,
  renderedOnce,
  selection,
  selectQuery,
  selectRows,
  tableAlias,
  tableAs,
  type RowOf,
} from '../../db/sql-rows';
import { contactRecordEvents, contactRecords, customers, motEvents, motPendingCounts, staff } from '../../db/schema';

export const c = tableAlias(customers, 'c');
export const e = tableAlias(motEvents, 'e');
export const s = tableAlias(staff, 's');
const p = tableAlias(motPendingCounts, 'p');
export const r = tableAlias(contactRecords, 'r');
export const l = tableAlias(contactRecordEvents, 'l');

const LARGE_MONEY_RULES = sql`('large_deposit', 'large_withdrawal')`;

/**
 * Pending events carry their customer's current manager and name (triggers of migrations 0008, 0009), so the
 * to-do queries read `mot_event_todo_idx` alone and join customer only for the page's rows.
 */
export const ownPendingEvents = (scope: StaffScope) => sql`
  ${tableAs(e)}
  join ${tableAs(s)} on ${s.id} = ${scope.staffId}
  where ${e.staffId} = ${scope.staffId} and ${e.corpId} = ${scope.corpId}`;
/** Large-money events only while at or above the caller's current threshold. */
export const pending = renderedOnce(sql`${e.status} <> 'handled'
  and not (${e.rule} in ${LARGE_MONEY_RULES} and ${e.cashIoHkd} < ${s.minCashIo})`);

/** The triggers' counts (migration 0010) plus the large-money events, counted live (they depend on the threshold). */
export const pendingCountRows = (scope: StaffScope, onDays: (column: AnyColumn) => SQL, rule?: string) => sql`
  select ${p.dueDate}, ${p.rule}, ${p.events}, ${p.unseen} from ${tableAs(p)}
   where ${p.staffId} = ${scope.staffId} and ${p.corpId} = ${scope.corpId} and ${onDays(p.dueDate)} ${rule ? sql`and ${p.rule} = ${rule}` : sql``}
  union all
  select ${e.dueDate}, ${e.rule}, 1, (${e.status} = 'new')::int from ${ownPendingEvents(scope)}
     and ${e.status} <> 'handled' and ${e.rule} in ${LARGE_MONEY_RULES} and ${e.cashIoHkd} >= ${s.minCashIo}
     and ${onDays(e.dueDate)} ${rule ? sql`and ${e.rule} = ${rule}` : sql``}`;

const customerSummaryColumns = selection({
  customerId: float8(c.id),
  customerNo: c.customerNo,
  nameCn: c.nameCn,
  nameEn: c.nameEn,
  phone: c.phone,
  status: c.status,
  riskLevel: c.riskLevel,
  openDate: asText(c.openDate),
  totalAssetsHkd: float8(c.totalAssetsHkd),
  lastTradeDate: asText(c.lastTradeDate),
  staffId: c.staffId,
});
export type CustomerSummaryRow = RowOf<typeof customerSummaryColumns>;

/** With their current manager (for 403 vs 404). */
export const customerSummaryQuery = (corpId: number, customerId: number) =>
  selectQuery(customerSummaryColumns, sql`from ${tableAs(c)} where ${c.corpId} = ${corpId} and ${c.id} = ${customerId}`);

type EventFacts = Record<string, string | number | boolean | null>;

const eventSelection = {
  eventId: float8(e.id),
  rule: e.rule,
  status: e.status,
  dueDate: asText(e.dueDate),
  customerId: float8(e.customerId),
  facts: sql<EventFacts>`${e.facts}`,
  createdAt: epochMs(e.createdAt),
  seenAt: epochMs(e.seenAt),
  handledAt: epochMs(e.handledAt),
  snoozed: sql<boolean>`${e.snoozedAt} is not null`,
};
export const eventColumns = selection(eventSelection);
export type EventRow = RowOf<typeof eventColumns>;

/** A contact record's latest version (ADR 0038) seen from one MOT event `e`: the one asked about, or its first. */
export const recordColumns = selection({
  recordId: float8(r.id),
  customerId: float8(r.customerId),
  customerName: sql<string>`coalesce(nullif(${c.nameCn}, ''), ${c.nameEn})`,
  eventId: sql<number | null>`${e.id}::float8`,
  rule: outerJoined(e.rule),
  channel: r.channel,
  note: r.note,
  outcome: r.outcome,
  servedAt: epochMs(r.servedAt),
});
export type RecordRow = RowOf<typeof recordColumns>;
const recordsOfEventsJoined =
  renderedOnce(sql`${tableAs(l)} join ${tableAs(r)} on ${r.threadId} = ${l.recordId} and ${r.supersededBy} is null
  join ${tableAs(c)} on ${c.id} = ${r.customerId}
  join ${tableAs(e)} on ${e.id} = ${l.motEventId}`);

export const ownedEventColumns = selection({ ...eventSelection, staffId: c.staffId });

export const staffSettingsColumns = selection({ minCashIo: float8(staff.minCashIo), motFold: staff.motFold });

export async function recordsOfEvents(db: Database, eventIds: readonly number[]) {
  if (eventIds.length === 0) return [];
  return selectRows(
    db,
    selectQuery(recordColumns, sql`from ${recordsOfEventsJoined} where ${l.motEventId} in (${valueList(eventIds)}) order by ${r.threadId}`),
  );
}
