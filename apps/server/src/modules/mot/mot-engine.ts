import { sql, type SQL } from 'drizzle-orm';
import type { MotRule } from '@broker/contract';
import type { DatabaseHandle } from '../../db/client';
import { motEvents } from '../../db/schema';
import { columnName, columnNames, rowsQuery, selection, selectQuery, selectRows, tableAlias, tableAs, type RowOf } from '../../db/sql-rows';
import { MOT_RULE_DEFINITIONS, ruleCustomer as c } from './mot-rules';
import { hongKongDay } from '@broker/domain';

type Queryable = Pick<DatabaseHandle, 'db'>;

const e = tableAlias(motEvents, 'e');

/** Every writer of MOT events goes through this: a fact already recorded is skipped. */
export const insertMotEvents = (select: SQL) => sql`insert into ${motEvents} (${columnNames(
  motEvents.customerNameEn,
  motEvents.corpId,
  motEvents.rule,
  motEvents.customerId,
  motEvents.staffId,
  motEvents.factKey,
  motEvents.dueDate,
  motEvents.facts,
)})
  ${select}
  on conflict (${columnNames(motEvents.rule, motEvents.customerId, motEvents.factKey)}) do nothing`;

const insertedCount = selection({ inserted: sql<number>`count(*)::int` });

export interface MotRunOptions {
  /** Hong Kong day; default today. */
  asOf?: string;
  /** Default every customer. */
  customerIds?: readonly number[];
  /** Their threshold changed. */
  staffId?: number;
  rules?: readonly MotRule[];
}

export interface MotRunResult {
  asOf: string;
  /** Facts that had already fired count 0. */
  inserted: Record<MotRule, number>;
  total: number;
  elapsedMs: number;
  /** Where a slow sweep spends its time. */
  ruleMs: Record<MotRule, number>;
}

/** One INSERT … SELECT … ON CONFLICT DO NOTHING per rule: safe to run any number of times, concurrently. */
export async function runMotRules(database: Queryable, options: MotRunOptions = {}): Promise<MotRunResult> {
  const started = performance.now();
  const asOf = options.asOf ?? hongKongDay();
  const scoped = options.customerIds !== undefined;
  const scope = scoped
    ? sql`${c.id} = any(${sql.param(options.customerIds)}::bigint[])`
    : options.staffId !== undefined
      ? sql`${c.staffId} = ${options.staffId}::int`
      : sql`true`;
  const asOfDay = sql`${asOf}::date`;
  const inserted = {} as Record<MotRule, number>;
  const ruleMs = {} as Record<MotRule, number>;
  let total = 0;
  if (scoped && options.customerIds!.length === 0) return { asOf, inserted, total, elapsedMs: 0, ruleMs };
  // Triggers keep pending events on the customer's current manager and name (migrations 0008, 0009); this
  // repairs a copy raced by a change committed during an earlier run. Handled events keep their handler.
  await database.db.execute(
    sql`update ${tableAs(e)}
           set ${columnName(e.staffId)} = case when ${e.status} <> 'handled' then ${c.staffId} else ${e.staffId} end, ${columnName(e.customerNameEn)} = ${c.nameEn}
          from ${tableAs(c)}
         where ${c.id} = ${e.customerId} and ${scope}
           and ((${e.status} <> 'handled' and ${e.staffId} <> ${c.staffId}) or ${e.customerNameEn} <> ${c.nameEn})`,
  );
  for (const definition of MOT_RULE_DEFINITIONS) {
    if (options.rules && !options.rules.includes(definition.rule)) continue;
    const ruleStarted = performance.now();
    const [row] = await selectRows(
      database.db,
      rowsQuery<RowOf<typeof insertedCount>>(sql`with fired as (
            ${insertMotEvents(definition.select({ asOf: asOfDay, scope }))}
            returning 1
          )
          ${selectQuery(insertedCount, sql`from fired`)}`),
    );
    inserted[definition.rule] = row?.inserted ?? 0;
    ruleMs[definition.rule] = Math.round(performance.now() - ruleStarted);
    total += inserted[definition.rule];
  }
  return { asOf, inserted, total, elapsedMs: Math.round(performance.now() - started), ruleMs };
}

/** Call after writing movements, transfers, holdings, prices or customer details, with the customers touched. */
export const runMotForCustomers = (database: Queryable, customerIds: readonly number[], asOf?: string) =>
  runMotRules(database, { customerIds, ...(asOf ? { asOf } : {}) });
