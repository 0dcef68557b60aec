import { sql, type SQL } from 'drizzle-orm';
import type { MotFacts } from '@broker/contract';
import type { Database } from '../../db/client';
import { containsPattern, rowsQuery, selectRows, selectRowSets } from '../../db/sql-rows';
import { auditLog } from '../../db/schema';

/** The caller: a staff member of a corp. Every query is limited to customers assigned to them. */
export interface MotScope {
  corpId: number;
  staffId: number;
}

const LARGE_MONEY_RULES = sql`('large_deposit', 'large_withdrawal')`;
const ms = (column: SQL) => sql`floor(extract(epoch from ${column}) * 1000)::float8`;
const hkDayStart = (day: string) => sql`(${day}::date::timestamp at time zone 'Asia/Hong_Kong')`;

/**
 * The caller's events, joined as `e` (mot_event) and `s` (their staff row). Pending events carry
 * their customer's current manager (moved by the trigger of migration 0008 the moment a customer
 * is reassigned) and name (copied by migration 0009), so the to-do queries read `mot_event_todo_idx`
 * alone and join customer only for the rows of the page shown.
 */
const ownPendingEvents = (scope: MotScope) => sql`
  mot_event e
  join staff s on s.id = ${scope.staffId}
  where e.staff_id = ${scope.staffId} and e.corp_id = ${scope.corpId}`;
/**
 * Pending: not handled, and — for large-money events — still at or above the caller's current
 * threshold (raising the threshold hides smaller movements; lowering it shows them again).
 */
const pending = sql`e.status <> 'handled'
  and not (e.rule in ${LARGE_MONEY_RULES} and e.cash_io_hkd < s.min_cash_io)`;

/**
 * The caller's pending events on the days `onDays` selects, as rows (due_date, rule, events,
 * unseen) to be added up: the counts kept by the triggers of migration 0010, plus the large-money
 * events, which depend on the caller's current threshold and so are counted live.
 */
const pendingCountRows = (scope: MotScope, onDays: (column: SQL) => SQL, rule?: string) => sql`
  select p.due_date, p.rule, p.events, p.unseen from mot_pending_count p
   where p.staff_id = ${scope.staffId} and p.corp_id = ${scope.corpId} and ${onDays(sql`p.due_date`)} ${rule ? sql`and p.rule = ${rule}` : sql``}
  union all
  select e.due_date, e.rule, 1, (e.status = 'new')::int from ${ownPendingEvents(scope)}
     and e.status <> 'handled' and e.rule in ${LARGE_MONEY_RULES} and e.cash_io_hkd >= s.min_cash_io
     and ${onDays(sql`e.due_date`)} ${rule ? sql`and e.rule = ${rule}` : sql``}`;

const customerSummaryColumns = sql`c.id::float8 as "customerId", c.customer_no as "customerNo", c.name_cn as "nameCn", c.name_en as "nameEn",
  c.phone, c.status, c.risk_level as "riskLevel", c.open_date::text as "openDate", c.total_assets_hkd::float8 as "totalAssetsHkd",
  c.last_trade_date::text as "lastTradeDate", c.staff_id as "staffId"`;

/** One customer of the corp, with their current manager (for 403 vs 404). */
const customerSummaryQuery = (corpId: number, customerId: number) =>
  rowsQuery<CustomerSummaryRow>(sql`select ${customerSummaryColumns} from customer c where c.corp_id = ${corpId} and c.id = ${customerId}`);

const eventColumns = sql`e.id::float8 as "eventId", e.rule, e.status, e.due_date::text as "dueDate", e.customer_id::float8 as "customerId",
  e.facts, ${ms(sql`e.created_at`)} as "createdAt", ${ms(sql`e.seen_at`)} as "seenAt", ${ms(sql`e.handled_at`)} as "handledAt"`;

const recordColumns = sql`r.id::float8 as "recordId", r.customer_id::float8 as "customerId", coalesce(nullif(c.name_cn, ''), c.name_en) as "customerName",
  r.mot_event_id::float8 as "eventId", e.rule, r.channel, r.note, r.outcome, ${ms(sql`r.served_at`)} as "servedAt"`;

export interface CustomerSummaryRow {
  customerId: number;
  customerNo: string;
  nameCn: string;
  nameEn: string;
  phone: string | null;
  status: string;
  riskLevel: number;
  openDate: string;
  totalAssetsHkd: number;
  lastTradeDate: string | null;
  staffId: number;
}
export interface EventRow {
  eventId: number;
  rule: string;
  status: string;
  dueDate: string;
  customerId: number;
  facts: Record<string, string | number | boolean | null>;
  createdAt: number;
  seenAt: number | null;
  handledAt: number | null;
}
export interface RecordRow {
  recordId: number;
  customerId: number;
  customerName: string;
  eventId: number | null;
  rule: string | null;
  channel: string;
  note: string;
  outcome: string | null;
  servedAt: number;
}
export interface TodoRow {
  customerId: number;
  customerNo: string;
  nameCn: string;
  nameEn: string;
  phone: string | null;
  unseen: boolean;
  events: { eventId: number; rule: string; status: string; dueDate: string; facts: MotFacts }[];
}

export function createMotRepository(db: Database) {
  return {
    async pendingDates(scope: MotScope, range: { dateFrom: string; dateTo: string }) {
      const onDays = (column: SQL) => sql`${column} between ${range.dateFrom}::date and ${range.dateTo}::date`;
      return selectRows<{ date: string; count: number; unseen: number }>(
        db,
        sql`select n.due_date::text as date, sum(n.events)::int as count, sum(n.unseen)::int as unseen
              from (${pendingCountRows(scope, onDays)}) n
             group by n.due_date having sum(n.events) > 0 order by n.due_date`,
      );
    },

    async todoRows(scope: MotScope, input: { date: string; rule?: string | undefined; fold: boolean; pageNum: number; pageSize: number }) {
      const where = sql`${pending} and e.due_date = ${input.date}::date ${input.rule ? sql`and e.rule = ${input.rule}` : sql``}`;
      const dayEvents = sql`${ownPendingEvents(scope)} and ${where}`;
      const eventJson = sql`jsonb_build_object('eventId', e.id, 'rule', e.rule, 'status', e.status, 'dueDate', e.due_date::text, 'facts', e.facts)`;
      const customer = sql`c.id::float8 as "customerId", c.customer_no as "customerNo", c.name_cn as "nameCn", c.name_en as "nameEn", c.phone`;
      const page = sql`limit ${input.pageSize} offset ${(input.pageNum - 1) * input.pageSize}`;
      // The page is chosen from mot_event_todo_idx alone (in name order, so LIMIT stops early and
      // an OFFSET skips index entries, not joined rows); customer and facts are read for its rows only.
      // One prepared statement for the page and its count: both are keyed by staff member and day,
      // so one plan suits every caller.
      if (input.fold) {
        const { rows, total } = await selectRowSets(
          db,
          {
            rows: rowsQuery<TodoRow>(
              sql`select ${customer}, p.unseen,
                       (select jsonb_agg(${eventJson} order by e.id) from ${dayEvents} and e.customer_name_en = p.customer_name_en and e.customer_id = p.customer_id) as events
                  from (select e.customer_name_en, e.customer_id, bool_or(e.status = 'new') as unseen from ${dayEvents}
                         group by e.customer_name_en, e.customer_id order by e.customer_name_en, e.customer_id ${page}) p
                  join customer c on c.id = p.customer_id
                 order by p.customer_name_en, p.customer_id`,
            ),
            total: rowsQuery<{ total: number }>(
              sql`select count(*)::int as total from (select from ${dayEvents} group by e.customer_name_en, e.customer_id) clients`,
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
            sql`select ${customer}, e.status = 'new' as unseen, jsonb_build_array(${eventJson}) as events
                from (select e.id from ${dayEvents} order by e.customer_name_en, e.customer_id, e.id ${page}) p
                join mot_event e on e.id = p.id
                join customer c on c.id = e.customer_id
               order by e.customer_name_en, e.customer_id, e.id`,
          ),
          total: rowsQuery<{ total: number }>(
            sql`select coalesce(sum(n.events), 0)::int as total from (${pendingCountRows(scope, (column) => sql`${column} = ${input.date}::date`, input.rule)}) n`,
          ),
        },
        { prepare: true },
      );
      return { rows, total: total[0]?.total ?? 0 };
    },

    async pendingCountsByRule(scope: MotScope, date: string | undefined) {
      const onDays = (column: SQL) => (date ? sql`${column} = ${date}::date` : sql`true`);
      return selectRows<{ rule: string; count: number; unseen: number }>(
        db,
        sql`select n.rule, sum(n.events)::int as count, sum(n.unseen)::int as unseen
              from (${pendingCountRows(scope, onDays)}) n group by n.rule`,
      );
    },

    /** Events by id within the corp, with the customer's current manager (for 403 vs 404). */
    async eventOwners(corpId: number, eventIds: readonly number[]) {
      return selectRows<{ eventId: number; staffId: number; status: string }>(
        db,
        sql`select e.id::float8 as "eventId", c.staff_id as "staffId", e.status
              from mot_event e join customer c on c.id = e.customer_id
             where e.corp_id = ${corpId} and e.id in (${sql.join(
               eventIds.map((id) => sql`${id}`),
               sql`, `,
             )})`,
      );
    },

    async markSeen(scope: MotScope, eventIds: readonly number[]) {
      const rows = await selectRows<{ id: number }>(
        db,
        sql`update mot_event e set status = 'seen', seen_at = now()
              from customer c
             where c.id = e.customer_id and c.staff_id = ${scope.staffId} and e.corp_id = ${scope.corpId}
               and e.status = 'new' and e.id in (${sql.join(
                 eventIds.map((id) => sql`${id}`),
                 sql`, `,
               )})
            returning e.id::float8 as id`,
      );
      return rows.length;
    },

    /**
     * Handles an event and writes its service record and audit row in one transaction. The
     * conditional UPDATE takes the row lock: of two concurrent handles, the second finds it
     * handled and gets `null` — so there is never a second record.
     */
    async handle(scope: MotScope, input: { eventId: number; channel: string; note: string; outcome: string | null; servedAt: Date }) {
      return db.transaction(async (tx) => {
        // The CTE locks the row and reads its status as it is now (new or seen), for the audit's `before`.
        const [event] = await selectRows<{ customerId: number; previousStatus: string }>(
          tx,
          sql`with previous as (select id, status from mot_event where id = ${input.eventId} for update)
              update mot_event e set status = 'handled', handled_at = now(), seen_at = coalesce(e.seen_at, now())
                from customer c, previous
               where e.id = previous.id and c.id = e.customer_id and c.staff_id = ${scope.staffId} and e.corp_id = ${scope.corpId}
                 and e.status <> 'handled'
              returning e.customer_id::float8 as "customerId", previous.status as "previousStatus"`,
        );
        if (!event) return null;
        const [record] = await selectRows<{ id: number }>(
          tx,
          sql`insert into service_record (corp_id, customer_id, staff_id, mot_event_id, channel, note, outcome, served_at)
              values (${scope.corpId}, ${event.customerId}, ${scope.staffId}, ${input.eventId}, ${input.channel}, ${input.note}, ${input.outcome}, ${input.servedAt.toISOString()}::timestamptz)
              returning id::float8 as id`,
        );
        await tx.insert(auditLog).values({
          corpId: scope.corpId,
          actorStaffId: scope.staffId,
          action: 'mot.handle',
          entity: 'mot_event',
          entityId: String(input.eventId),
          before: { status: event.previousStatus },
          after: { status: 'handled', serviceRecordId: record!.id, channel: input.channel, outcome: input.outcome },
        });
        return record!.id;
      });
    },

    async record(recordId: number) {
      const [row] = await selectRows<RecordRow>(
        db,
        sql`select ${recordColumns} from service_record r join customer c on c.id = r.customer_id
              left join mot_event e on e.id = r.mot_event_id where r.id = ${recordId}`,
      );
      return row;
    },

    async event(corpId: number, eventId: number) {
      const [row] = await selectRows<EventRow & { staffId: number }>(
        db,
        sql`select ${eventColumns}, c.staff_id as "staffId" from mot_event e join customer c on c.id = e.customer_id
             where e.corp_id = ${corpId} and e.id = ${eventId}`,
      );
      return row;
    },

    async recordsOfEvents(eventIds: readonly number[]) {
      if (eventIds.length === 0) return [];
      return selectRows<RecordRow>(
        db,
        sql`select ${recordColumns} from service_record r join customer c on c.id = r.customer_id
              left join mot_event e on e.id = r.mot_event_id
             where r.mot_event_id in (${sql.join(
               eventIds.map((id) => sql`${id}`),
               sql`, `,
             )}) order by r.id`,
      );
    },

    async customer(corpId: number, customerId: number) {
      const [row] = await selectRows<CustomerSummaryRow>(db, customerSummaryQuery(corpId, customerId));
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
          rows: rowsQuery<EventRow>(
            sql`select ${eventColumns} from mot_event e where e.customer_id = ${customerId}
                 order by e.due_date desc, e.id desc limit ${page.pageSize} offset ${(page.pageNum - 1) * page.pageSize}`,
          ),
          total: rowsQuery<{ total: number }>(sql`select count(*)::int as total from mot_event where customer_id = ${customerId}`),
        },
        { prepare: true },
      );
      return { customer: customer[0], rows, total: total[0]?.total ?? 0 };
    },

    async searchRecords(
      scope: MotScope,
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
      const conditions: SQL[] = [sql`r.corp_id = ${scope.corpId}`, sql`c.staff_id = ${scope.staffId}`];
      if (input.keyword) {
        const pattern = containsPattern(input.keyword);
        conditions.push(
          sql`(r.note ilike ${pattern} or r.outcome ilike ${pattern} or c.name_cn ilike ${pattern} or c.name_en ilike ${pattern})`,
        );
      }
      if (input.rule) conditions.push(sql`e.rule = ${input.rule}`);
      if (input.channel) conditions.push(sql`r.channel = ${input.channel}`);
      if (input.dateFrom) conditions.push(sql`r.served_at >= ${hkDayStart(input.dateFrom)}`);
      if (input.dateTo) conditions.push(sql`r.served_at < ${hkDayStart(input.dateTo)} + interval '1 day'`);
      const from = sql`service_record r join customer c on c.id = r.customer_id left join mot_event e on e.id = r.mot_event_id where ${sql.join(conditions, sql` and `)}`;
      const { rows, total } = await selectRowSets(
        db,
        {
          rows: rowsQuery<RecordRow>(
            sql`select ${recordColumns} from ${from} order by r.served_at desc, r.id desc limit ${input.pageSize} offset ${(input.pageNum - 1) * input.pageSize}`,
          ),
          total: rowsQuery<{ total: number }>(sql`select count(*)::int as total from ${from}`),
        },
        // A keyword's plan depends on how common it is; without one, one plan suits every caller.
        { prepare: !input.keyword },
      );
      return { rows, total: total[0]?.total ?? 0 };
    },

    async staffSettings(staffId: number) {
      const [row] = await selectRows<{ minCashIo: number; motFold: boolean }>(
        db,
        sql`select min_cash_io::float8 as "minCashIo", mot_fold as "motFold" from staff where id = ${staffId}`,
        { prepare: true },
      );
      return row;
    },

    /** Changes a staff setting and writes the audit row (before/after) in one transaction. */
    async updateStaffSetting(scope: MotScope, setting: { minCashIo: number } | { motFold: boolean }) {
      await db.transaction(async (tx) => {
        const column = 'minCashIo' in setting ? sql`min_cash_io` : sql`mot_fold`;
        const value = 'minCashIo' in setting ? setting.minCashIo : setting.motFold;
        const [before] = await selectRows<{ value: number | boolean }>(
          tx,
          sql`select ${'minCashIo' in setting ? sql`min_cash_io::float8` : sql`mot_fold`} as value from staff where id = ${scope.staffId} for update`,
        );
        await tx.execute(sql`update staff set ${column} = ${value}, updated_at = now() where id = ${scope.staffId}`);
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
