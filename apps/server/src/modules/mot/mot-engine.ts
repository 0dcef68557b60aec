import type { MotRule } from '@broker/contract';
import type { DatabaseHandle } from '../../db/client';
import { MOT_RULE_DEFINITIONS } from './mot-rules';
import { hongKongDay } from '@broker/domain';

type Queryable = Pick<DatabaseHandle, 'query'>;

export interface MotRunOptions {
  /** The Hong Kong day the rules look from; default today. */
  asOf?: string;
  /** Only these customers (a data change); default every customer. */
  customerIds?: readonly number[];
  /** Only the customers of this staff member (their threshold changed). */
  staffId?: number;
  /** Only these rules; default all. */
  rules?: readonly MotRule[];
}

export interface MotRunResult {
  asOf: string;
  /** Events newly created, per rule (facts that had already fired count 0). */
  inserted: Record<MotRule, number>;
  total: number;
  elapsedMs: number;
  /** Milliseconds per rule: where a slow sweep spends its time. */
  ruleMs: Record<MotRule, number>;
}

/**
 * Evaluates the rules, one set-based INSERT … SELECT … ON CONFLICT DO NOTHING per rule. Safe to
 * run any number of times, concurrently, from any number of processes: the unique key
 * (rule, customer_id, fact_key) lets each fact through once.
 */
export async function runMotRules(database: Queryable, options: MotRunOptions = {}): Promise<MotRunResult> {
  const started = performance.now();
  const asOf = options.asOf ?? hongKongDay();
  const scoped = options.customerIds !== undefined;
  const scope = scoped ? 'c.id = any($2::bigint[])' : options.staffId !== undefined ? 'c.staff_id = $2::int' : 'true';
  const params = scoped ? [asOf, options.customerIds] : options.staffId !== undefined ? [asOf, options.staffId] : [asOf];
  const inserted = {} as Record<MotRule, number>;
  const ruleMs = {} as Record<MotRule, number>;
  let total = 0;
  if (scoped && options.customerIds!.length === 0) return { asOf, inserted, total, elapsedMs: 0, ruleMs };
  // Pending events follow a reassigned customer to the new manager, and every event carries the
  // customer's current name (the to-do queries sort and count by these copies). Triggers keep them
  // at once (migrations 0008, 0009); this repairs a copy raced by a rename or reassignment that
  // committed while an earlier run was inserting. Handled events keep the manager who handled them.
  await database.query(
    `update mot_event e
        set staff_id = case when e.status <> 'handled' then c.staff_id else e.staff_id end, customer_name_en = c.name_en
       from customer c
      where c.id = e.customer_id and ${scope.replace('$2', '$1')}
        and ((e.status <> 'handled' and e.staff_id <> c.staff_id) or e.customer_name_en <> c.name_en)`,
    params.slice(1),
  );
  for (const definition of MOT_RULE_DEFINITIONS) {
    if (options.rules && !options.rules.includes(definition.rule)) continue;
    const ruleStarted = performance.now();
    const [row] = await database.query<{ inserted: number }>(
      `with fired as (
         insert into mot_event (customer_name_en, corp_id, rule, customer_id, staff_id, fact_key, due_date, facts)
         ${definition.select(scope)}
         on conflict (rule, customer_id, fact_key) do nothing
         returning 1
       )
       select count(*)::int as inserted from fired`,
      params,
    );
    inserted[definition.rule] = row?.inserted ?? 0;
    ruleMs[definition.rule] = Math.round(performance.now() - ruleStarted);
    total += inserted[definition.rule];
  }
  return { asOf, inserted, total, elapsedMs: Math.round(performance.now() - started), ruleMs };
}

/**
 * The data-change hook: call after writing money movements, stock transfers, holdings, prices or
 * customer details (the importer, any writer) with the customers touched.
 */
export const runMotForCustomers = (database: Queryable, customerIds: readonly number[], asOf?: string) =>
  runMotRules(database, { customerIds, ...(asOf ? { asOf } : {}) });
