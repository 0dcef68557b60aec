import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { outcomeCodesMatching, type MotFacts } from '@broker/contract';
import type { Database } from '../../db/client';
import type { StaffScope } from '../../http/caller';
import {
  asText,
  columnName,
  containsPattern,
  epochMs,
  float8,
  outerJoined,
  rowsQuery,
  renderedOnce,
  selection,
  selectQuery,
  selectRows,
  selectRowSets,
  tableAlias,
  tableAs,
  type ColumnValue,
  type RowOf,
} from '../../db/sql-rows';
import { auditLog, contactRecordEvents, contactRecords, customers, motEvents, motPendingCounts, staff } from '../../db/schema';

const c = tableAlias(customers, 'c');
const e = tableAlias(motEvents, 'e');
const s = tableAlias(staff, 's');
const p = tableAlias(motPendingCounts, 'p');
const r = tableAlias(contactRecords, 'r');
const l = tableAlias(contactRecordEvents, 'l');

const LARGE_MONEY_RULES = sql`('large_deposit', 'large_withdrawal')`;
export const hkDayStart = (day: string) => sql`(${day}::date::timestamp at time zone 'Asia/Hong_Kong')`;

/**
 * The caller's events, joined as `e` (mot_event) and `s` (their staff row). Pending events carry
 * their customer's current manager (moved by the trigger of migration 0008 the moment a customer
 * is reassigned) and name (copied by migration 0009), so the to-do queries read `mot_event_todo_idx`
 * alone and join customer only for the rows of the page shown.
 */
const ownPendingEvents = (scope: StaffScope) => sql`
  ${tableAs(e)}
  join ${tableAs(s)} on ${s.id} = ${scope.staffId}
  where ${e.staffId} = ${scope.staffId} and ${e.corpId} = ${scope.corpId}`;
/**
 * Pending: not handled, and — for large-money events — still at or above the caller's current
 * threshold (raising the threshold hides smaller movements; lowering it shows them again).
 */
export const pending = renderedOnce(sql`${e.status} <> 'handled'
  and not (${e.rule} in ${LARGE_MONEY_RULES} and ${e.cashIoHkd} < ${s.minCashIo})`);

/**
 * The caller's pending events on the days `onDays` selects, as rows (due_date, rule, events,
 * unseen) to be added up: the counts kept by the triggers of migration 0010, plus the large-money
 * events, which depend on the caller's current threshold and so are counted live.
 */
const pendingCountRows = (scope: StaffScope, onDays: (column: AnyColumn) => SQL, rule?: string) => sql`
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

/** One customer of the corp, with their current manager (for 403 vs 404). */
const customerSummaryQuery = (corpId: number, customerId: number) =>
  selectQuery(customerSummaryColumns, sql`from ${tableAs(c)} where ${c.corpId} = ${corpId} and ${c.id} = ${customerId}`);

/** What a rule recorded of the fact that fired it (a JSON object of the rule's inputs). */
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
const eventColumns = selection(eventSelection);
export type EventRow = RowOf<typeof eventColumns>;

/**
 * A service record is a contact record as it stands now (its latest version, ADR 0038) seen from
 * one MOT event: `e` is the event it handled — the one asked about, or for a search the first event
 * the record is linked to (a record may serve several, or none).
 */
const recordColumns = selection({
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
/** Latest versions with their customer and first linked event: `from` for `recordColumns`. */
const recordsJoined = renderedOnce(sql`${tableAs(r)} join ${tableAs(c)} on ${c.id} = ${r.customerId}
  left join lateral (select ${l.motEventId} from ${tableAs(l)} where ${l.recordId} = ${r.threadId} order by ${l.motEventId} limit 1) first_event on true
  left join ${tableAs(e)} on ${e.id} = first_event.mot_event_id`);
/** The records that handled the given events (latest versions), joined to those events. */
const recordsOfEventsJoined =
  renderedOnce(sql`${tableAs(l)} join ${tableAs(r)} on ${r.threadId} = ${l.recordId} and ${r.supersededBy} is null
  join ${tableAs(c)} on ${c.id} = ${r.customerId}
  join ${tableAs(e)} on ${e.id} = ${l.motEventId}`);

const todoCustomerColumns = selection({
  customerId: float8(c.id),
  customerNo: c.customerNo,
  nameCn: c.nameCn,
  nameEn: c.nameEn,
  phone: c.phone,
});
/** One event of a to-do row, as `todoEventJson` builds it. */
interface TodoEvent {
  eventId: number;
  rule: ColumnValue<typeof motEvents.rule>;
  status: ColumnValue<typeof motEvents.status>;
  dueDate: string;
  facts: MotFacts;
  snoozed: boolean;
}
export type TodoRow = RowOf<typeof todoCustomerColumns> & { unseen: boolean; events: TodoEvent[] };
const todoEventJson = renderedOnce(
  sql`jsonb_build_object('eventId', ${e.id}, 'rule', ${e.rule}, 'status', ${e.status}, 'dueDate', ${e.dueDate}::text, 'facts', ${e.facts}, 'snoozed', ${e.snoozedAt} is not null)`,
);

const idList = (ids: readonly number[]) =>
  sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );

const eventOwnerColumns = selection({ eventId: float8(e.id), staffId: c.staffId, status: e.status });

const ownedEventColumns = selection({ ...eventSelection, staffId: c.staffId });

const staffSettingsColumns = selection({ minCashIo: float8(staff.minCashIo), motFold: staff.motFold });

export function createMotRepository(db: Database) {
  return {
    async pendingDates(scope: StaffScope, range: { dateFrom: string; dateTo: string }) {
      const onDays = (column: AnyColumn) => sql`${column} between ${range.dateFrom}::date and ${range.dateTo}::date`;
      return selectRows(
        db,
        rowsQuery<{ date: string; count: number; unseen: number }>(
          sql`select n.due_date::text as date, sum(n.events)::int as count, sum(n.unseen)::int as unseen
                from (${pendingCountRows(scope, onDays)}) n
               group by n.due_date having sum(n.events) > 0 order by n.due_date`,
        ),
      );
    },

    async todoRows(
      scope: StaffScope,
      input: { date: string; rule?: string | undefined; fold: boolean; pageNum: number; pageSize: number },
    ) {
      const where = sql`${pending} and ${e.dueDate} = ${input.date}::date ${input.rule ? sql`and ${e.rule} = ${input.rule}` : sql``}`;
      const dayEvents = sql`${ownPendingEvents(scope)} and ${where}`;
      const page = sql`limit ${input.pageSize} offset ${(input.pageNum - 1) * input.pageSize}`;
      // The page is chosen from mot_event_todo_idx alone (in name order, so LIMIT stops early and
      // an OFFSET skips index entries, not joined rows); customer and facts are read for its rows only.
      // One prepared statement for the page and its count: both are keyed by staff member and day,
      // so one plan suits every caller. `p`: the page's clients (fold) or events, a derived table.
      if (input.fold) {
        const { rows, total } = await selectRowSets(
          db,
          {
            rows: rowsQuery<TodoRow>(
              sql`select ${todoCustomerColumns}, p.unseen,
                       (select jsonb_agg(${todoEventJson} order by ${e.id}) from ${dayEvents} and ${e.customerNameEn} = p.customer_name_en and ${e.customerId} = p.customer_id) as events
                  from (select ${e.customerNameEn}, ${e.customerId}, bool_or(${e.status} = 'new') as unseen from ${dayEvents}
                         group by ${e.customerNameEn}, ${e.customerId} order by ${e.customerNameEn}, ${e.customerId} ${page}) p
                  join ${tableAs(c)} on ${c.id} = p.customer_id
                 order by p.customer_name_en, p.customer_id`,
            ),
            total: rowsQuery<{ total: number }>(
              sql`select count(*)::int as total from (select from ${dayEvents} group by ${e.customerNameEn}, ${e.customerId}) clients`,
            ),
          },
          { prepare: true },
        );
        return { rows, total: total[0]?.total ?? 0 };
      }
      const { rows, total } = await selectRowSets(
        db,
        {
          rows: rowsQuery<TodoRow>(
            sql`select ${todoCustomerColumns}, ${e.status} = 'new' as unseen, jsonb_build_array(${todoEventJson}) as events
                from (select ${e.id} from ${dayEvents} order by ${e.customerNameEn}, ${e.customerId}, ${e.id} ${page}) p
                join ${tableAs(e)} on ${e.id} = p.id
                join ${tableAs(c)} on ${c.id} = ${e.customerId}
               order by ${e.customerNameEn}, ${e.customerId}, ${e.id}`,
          ),
          total: rowsQuery<{ total: number }>(
            sql`select coalesce(sum(n.events), 0)::int as total from (${pendingCountRows(scope, (column) => sql`${column} = ${input.date}::date`, input.rule)}) n`,
          ),
        },
        { prepare: true },
      );
      return { rows, total: total[0]?.total ?? 0 };
    },

    async pendingCountsByRule(scope: StaffScope, date: string | undefined) {
      const onDays = (column: AnyColumn) => (date ? sql`${column} = ${date}::date` : sql`true`);
      return selectRows(
        db,
        rowsQuery<{ rule: string; count: number; unseen: number }>(
          sql`select n.rule, sum(n.events)::int as count, sum(n.unseen)::int as unseen
                from (${pendingCountRows(scope, onDays)}) n group by n.rule`,
        ),
      );
    },

    /** Events by id within the corp, with the customer's current manager (for 403 vs 404). */
    async eventOwners(corpId: number, eventIds: readonly number[]) {
      return selectRows(
        db,
        selectQuery(
          eventOwnerColumns,
          sql`from ${tableAs(e)} join ${tableAs(c)} on ${c.id} = ${e.customerId}
             where ${e.corpId} = ${corpId} and ${e.id} in (${idList(eventIds)})`,
        ),
      );
    },

    async markSeen(scope: StaffScope, eventIds: readonly number[]) {
      const rows = await selectRows(
        db,
        rowsQuery<{ id: number }>(
          sql`update ${tableAs(e)} set ${columnName(e.status)} = 'seen', ${columnName(e.seenAt)} = now()
                from ${tableAs(c)}
               where ${c.id} = ${e.customerId} and ${c.staffId} = ${scope.staffId} and ${e.corpId} = ${scope.corpId}
                 and ${e.status} = 'new' and ${e.id} in (${idList(eventIds)})
              returning ${float8(e.id)} as id`,
        ),
      );
      return rows.length;
    },

    async event(corpId: number, eventId: number) {
      const [row] = await selectRows(
        db,
        selectQuery(
          ownedEventColumns,
          sql`from ${tableAs(e)} join ${tableAs(c)} on ${c.id} = ${e.customerId} where ${e.corpId} = ${corpId} and ${e.id} = ${eventId}`,
        ),
      );
      return row;
    },

    async recordsOfEvents(eventIds: readonly number[]) {
      if (eventIds.length === 0) return [];
      return selectRows(
        db,
        selectQuery(
          recordColumns,
          sql`from ${recordsOfEventsJoined} where ${l.motEventId} in (${idList(eventIds)}) order by ${r.threadId}`,
        ),
      );
    },

    async customer(corpId: number, customerId: number) {
      const [row] = await selectRows(db, customerSummaryQuery(corpId, customerId));
      return row;
    },

    /**
     * The customer (with their manager, for 403 vs 404: the caller checks before returning
     * anything) and a page of their events, in one prepared statement keyed by the customer.
     */
    async customerWithEvents(corpId: number, customerId: number, page: { pageNum: number; pageSize: number }) {
      const { customer, rows, total } = await selectRowSets(
        db,
        {
          customer: customerSummaryQuery(corpId, customerId),
          rows: selectQuery(
            eventColumns,
            sql`from ${tableAs(e)} where ${e.customerId} = ${customerId}
                 order by ${e.dueDate} desc, ${e.id} desc limit ${page.pageSize} offset ${(page.pageNum - 1) * page.pageSize}`,
          ),
          total: rowsQuery<{ total: number }>(
            sql`select count(*)::int as total from ${motEvents} where ${motEvents.customerId} = ${customerId}`,
          ),
        },
        { prepare: true },
      );
      return { customer: customer[0], rows, total: total[0]?.total ?? 0 };
    },

    async searchRecords(
      scope: StaffScope,
      input: {
        keyword?: string | undefined;
        rule?: string | undefined;
        channel?: string | undefined;
        dateFrom?: string | undefined;
        dateTo?: string | undefined;
        pageNum: number;
        pageSize: number;
      },
    ) {
      const conditions: SQL[] = [sql`${r.corpId} = ${scope.corpId}`, sql`${c.staffId} = ${scope.staffId}`, sql`${r.supersededBy} is null`];
      if (input.keyword) {
        const pattern = containsPattern(input.keyword);
        // An outcome picked from a chip is stored as its code: the words the manager sees find it too.
        const outcomeCodes = outcomeCodesMatching(input.keyword);
        const byCode =
          outcomeCodes.length > 0
            ? sql` or ${r.outcome} in (${sql.join(
                outcomeCodes.map((code) => sql`${code}`),
                sql`, `,
              )})`
            : sql``;
        conditions.push(
          sql`(${r.note} ilike ${pattern} or ${r.outcome} ilike ${pattern}${byCode} or ${c.nameCn} ilike ${pattern} or ${c.nameEn} ilike ${pattern})`,
        );
      }
      if (input.rule) {
        const linked = tableAlias(motEvents, 'le');
        conditions.push(
          sql`exists (select from ${tableAs(l)} join ${tableAs(linked)} on ${linked.id} = ${l.motEventId} where ${l.recordId} = ${r.threadId} and ${linked.rule} = ${input.rule})`,
        );
      }
      if (input.channel) conditions.push(sql`${r.channel} = ${input.channel}`);
      if (input.dateFrom) conditions.push(sql`${r.servedAt} >= ${hkDayStart(input.dateFrom)}`);
      if (input.dateTo) conditions.push(sql`${r.servedAt} < ${hkDayStart(input.dateTo)} + interval '1 day'`);
      const from = sql`from ${recordsJoined} where ${sql.join(conditions, sql` and `)}`;
      const { rows, total } = await selectRowSets(
        db,
        {
          rows: selectQuery(
            recordColumns,
            sql`${from} order by ${r.servedAt} desc, ${r.id} desc limit ${input.pageSize} offset ${(input.pageNum - 1) * input.pageSize}`,
          ),
          total: rowsQuery<{ total: number }>(sql`select count(*)::int as total ${from}`),
        },
        // Prepared with or without a keyword (one generic plan per filter shape): the plan is led by the
        // manager's clients and their records either way — a keyword filters rows the plan has already
        // reached (no index serves an OR across the record's and the client's columns) — and planning
        // it per call cost ~2.7 ms of PostgreSQL CPU, more than running it (ADR 0009's addendum, session 17).
        { prepare: true },
      );
      return { rows, total: total[0]?.total ?? 0 };
    },

    async staffSettings(staffId: number) {
      const [row] = await selectRows(db, selectQuery(staffSettingsColumns, sql`from ${staff} where ${staff.id} = ${staffId}`), {
        prepare: true,
      });
      return row;
    },

    /** Changes a staff setting and writes the audit row (before/after) in one transaction. */
    async updateStaffSetting(scope: StaffScope, setting: { minCashIo: number } | { motFold: boolean }) {
      await db.transaction(async (tx) => {
        const column = 'minCashIo' in setting ? staff.minCashIo : staff.motFold;
        const value = 'minCashIo' in setting ? setting.minCashIo : setting.motFold;
        const [before] = await selectRows(
          tx,
          rowsQuery<{ value: number | boolean }>(
            sql`select ${'minCashIo' in setting ? float8(staff.minCashIo) : staff.motFold} as value from ${staff} where ${staff.id} = ${scope.staffId} for update`,
          ),
        );
        await tx.execute(
          sql`update ${staff} set ${columnName(column)} = ${value}, ${columnName(staff.updatedAt)} = now() where ${staff.id} = ${scope.staffId}`,
        );
        const field = 'minCashIo' in setting ? 'minCashIO' : 'motFold';
        await tx.insert(auditLog).values({
          corpId: scope.corpId,
          actorStaffId: scope.staffId,
          action: 'minCashIo' in setting ? 'mot.setMinCashIO' : 'mot.setFold',
          entity: 'staff',
          entityId: String(scope.staffId),
          before: { [field]: before?.value ?? null },
          after: { [field]: value },
        });
      });
    },
  };
}

export type MotRepository = ReturnType<typeof createMotRepository>;
