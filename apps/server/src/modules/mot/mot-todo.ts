import { sql, type AnyColumn } from 'drizzle-orm';
import { MOT_RULES, paged, type MotEvent, type MotRule, type MotTodoRow } from '@broker/contract';
import { addDays, dayNumber, hongKongDay, maskPhone } from '@broker/domain';
import type { Database } from '../../db/client';
import { float8, renderedOnce, rowsQuery, selection, selectRows, selectRowSets, tableAs, type RowOf } from '../../db/sql-rows';
import { ApiError } from '../../http/api-error';
import { scopeOf, type Caller, type StaffScope } from '../../http/caller';
import { c, e, ownPendingEvents, pending, pendingCountRows } from './mot.repository';
import { staffSettingsOf } from './mot.service';

const DEFAULT_RANGE_DAYS = 30;
const MAX_RANGE_DAYS = 366;

const todoCustomerColumns = selection({
  customerId: float8(c.id),
  customerNo: c.customerNo,
  nameCn: c.nameCn,
  nameEn: c.nameEn,
  phone: c.phone,
});
/** As stored: the rule and status are text. */
type TodoEvent = Omit<MotTodoRow['events'][number], 'rule' | 'status'> & { rule: string; status: string };
type TodoRow = RowOf<typeof todoCustomerColumns> & { unseen: boolean; events: TodoEvent[] };
const todoEventJson = renderedOnce(
  sql`jsonb_build_object('eventId', ${e.id}, 'rule', ${e.rule}, 'status', ${e.status}, 'dueDate', ${e.dueDate}::text, 'facts', ${e.facts}, 'snoozed', ${e.snoozedAt} is not null)`,
);

const toTodoRow = (row: TodoRow): MotTodoRow => ({
  ...row,
  phone: maskPhone(row.phone),
  events: row.events.map((event) => ({ ...event, rule: event.rule as MotRule, status: event.status as MotEvent['status'] })),
});

async function todoRows(
  db: Database,
  scope: StaffScope,
  input: { date: string; rule?: string | undefined; fold: boolean; pageNum: number; pageSize: number },
) {
  const where = sql`${pending} and ${e.dueDate} = ${input.date}::date ${input.rule ? sql`and ${e.rule} = ${input.rule}` : sql``}`;
  const dayEvents = sql`${ownPendingEvents(scope)} and ${where}`;
  const page = sql`limit ${input.pageSize} offset ${(input.pageNum - 1) * input.pageSize}`;
  // The page from mot_event_todo_idx alone, in name order (LIMIT stops early, OFFSET skips index entries);
  // customer and facts for its rows only. One prepared statement for page and count: one plan suits every caller.
  const queries = input.fold
    ? {
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
      }
    : {
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
      };
  const { rows, total } = await selectRowSets(db, queries, { prepare: true });
  return { rows, total: total[0]?.total ?? 0 };
}

export async function getTodoDates(db: Database, caller: Caller, input: { dateFrom?: string | undefined; dateTo?: string | undefined }) {
  const today = hongKongDay();
  const dateFrom = input.dateFrom ?? (input.dateTo ? addDays(input.dateTo, -2 * DEFAULT_RANGE_DAYS) : addDays(today, -DEFAULT_RANGE_DAYS));
  const dateTo = input.dateTo ?? addDays(dateFrom, 2 * DEFAULT_RANGE_DAYS);
  if (dayNumber(dateTo) - dayNumber(dateFrom) > MAX_RANGE_DAYS) {
    throw ApiError.validation('dateTo', `must be at most ${MAX_RANGE_DAYS} days after dateFrom`);
  }
  const onDays = (column: AnyColumn) => sql`${column} between ${dateFrom}::date and ${dateTo}::date`;
  return selectRows(
    db,
    rowsQuery<{ date: string; count: number; unseen: number }>(
      sql`select n.due_date::text as date, sum(n.events)::int as count, sum(n.unseen)::int as unseen
            from (${pendingCountRows(scopeOf(caller), onDays)}) n
           group by n.due_date having sum(n.events) > 0 order by n.due_date`,
    ),
  );
}

export async function getTodoClients(
  db: Database,
  caller: Caller,
  input: { date?: string | undefined; rule?: MotRule | undefined; pageNum: number; pageSize: number },
) {
  const { motFold } = await staffSettingsOf(db, caller);
  const { rows, total } = await todoRows(db, scopeOf(caller), { ...input, date: input.date ?? hongKongDay(), fold: motFold });
  return { ...paged(rows.map(toTodoRow), total, input), fold: motFold };
}

export async function getTodoTaskCount(db: Database, caller: Caller, date: string | undefined) {
  const onDays = (column: AnyColumn) => (date ? sql`${column} = ${date}::date` : sql`true`);
  const rows = await selectRows(
    db,
    rowsQuery<{ rule: string; count: number; unseen: number }>(
      sql`select n.rule, sum(n.events)::int as count, sum(n.unseen)::int as unseen
            from (${pendingCountRows(scopeOf(caller), onDays)}) n group by n.rule`,
    ),
  );
  const byRule = MOT_RULES.map((rule) => {
    const row = rows.find((candidate) => candidate.rule === rule);
    return { rule, count: row?.count ?? 0, unseen: row?.unseen ?? 0 };
  });
  return { total: byRule.reduce((sum, row) => sum + row.count, 0), unseen: byRule.reduce((sum, row) => sum + row.unseen, 0), byRule };
}
