import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../../db/client';
import { rowsQuery, selectRows } from '../../db/sql-rows';
import { nextSendableAt, type QuietHours } from './quiet-hours';

/** What queued a card: the daily sweep, an import of data, a threshold change (setMinCashIO). */
export type PushReason = 'sweep' | 'import' | 'threshold';

/** Rules a card never announces: a follow-up is the manager's own next step, written by themselves. */
const NOT_ANNOUNCED_RULES = ['follow_up'];

export interface EnqueueOptions {
  reason: PushReason;
  /** Only these managers' events (setMinCashIO: the caller); default every manager's. */
  staffId?: number;
  now?: number;
  quietHours?: QuietHours | null;
}

export interface EnqueueResult {
  /** Managers with a card queued (new, or merged into one already waiting). */
  cards: number;
  /** Events those cards announce. */
  events: number;
}

/**
 * Queues one card per manager with new, unannounced events — after the daily sweep, an import or a
 * threshold change — in one statement, so every trigger is one batch:
 *
 * 1. the managers with unannounced events (`push_id is null`, from a partial index holding only those),
 *    leaving out large-money events below the manager's current threshold (the list hides them; they
 *    stay unannounced and are announced if the threshold comes down to them);
 * 2. a `pending` mot_push row per manager who has not opted out — or the one already waiting (quiet
 *    hours, the per-member interval), which the new events join: `mot_push_one_pending_uq` makes
 *    two concurrent triggers meet on that one row;
 * 3. the events get that row's id; events of managers who opted out, events no longer new and
 *    rules never announced get 0 (announced by no card), so they are not looked at again.
 *
 * Row locks make it exactly-once: an event is announced by the statement that set its `push_id`; a
 * concurrent one waits for that row and then finds it no longer null.
 */
export async function enqueueMotPushes(database: DatabaseHandle, options: EnqueueOptions): Promise<EnqueueResult> {
  const now = options.now ?? Date.now();
  const notBefore = new Date(nextSendableAt(now, options.quietHours ?? null)).toISOString();
  const onlyStaff = options.staffId === undefined ? sql`` : sql`and e.staff_id = ${options.staffId}`;
  const [result] = await selectRows(
    database.db,
    rowsQuery<{ cards: number; events: number }>(sql`
      with unannounced as (
        select e.id, e.staff_id, e.corp_id,
               (e.status = 'new' and not s.mot_push_opt_out and s.active
                 and e.rule <> all(${sql.raw(`ARRAY[${NOT_ANNOUNCED_RULES.map((rule) => `'${rule}'`).join(',')}]::text[]`)})) as announce
          from mot_event e
          join staff s on s.id = e.staff_id
         where e.push_id is null ${onlyStaff}
           and (e.cash_io_hkd is null or e.cash_io_hkd >= s.min_cash_io)
      ),
      managers as (
        select staff_id, min(corp_id) as corp_id from unannounced where announce group by staff_id
      ),
      cards as (
        insert into mot_push (corp_id, staff_id, reason, not_before)
        select corp_id, staff_id, ${options.reason}, ${notBefore}::timestamptz from managers
        on conflict (staff_id) where status = 'pending'
          do update set not_before = mot_push.not_before
        returning id, staff_id
      ),
      announced as (
        update mot_event e
           set push_id = coalesce(c.id, 0)
          from unannounced u
          left join cards c on c.staff_id = u.staff_id and u.announce
         where e.id = u.id and e.push_id is null
        returning e.push_id
      )
      select (select count(*) from cards)::int as cards,
             (select count(*) from announced where push_id > 0)::int as events
    `),
  );
  return result ?? { cards: 0, events: 0 };
}
