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

/** The daily sweep's `announce` (runDailyMotSweep, wired by its callers): one card per manager with new events. */
export const announceSweep = (database: DatabaseHandle) => enqueueMotPushes(database, { reason: 'sweep' });

/** Events are candidates this long after they were raised (ADR 0042); a trigger follows its events within seconds. */
export const ANNOUNCE_WINDOW = '2 days';

/**
 * Queues one card per manager with new, unannounced events — after the daily sweep, an import or a
 * threshold change — in one statement, so every trigger is one batch:
 *
 * 1. the candidates: events of the last two days (a BRIN index on `created_at`) not yet in
 *    mot_push_event, leaving out large-money events below the manager's current threshold (the list
 *    hides them; they stay candidates, announced if the threshold comes down to them in that time);
 * 2. a `pending` mot_push row per manager who has not opted out — or the one already waiting (quiet
 *    hours, the per-member interval), which the new events join: `mot_push_one_pending_uq` makes
 *    two concurrent triggers meet on that one row;
 * 3. a mot_push_event row per candidate naming that card, or 0 (events of managers who opted out,
 *    events no longer new, rules never announced), so it is not looked at again.
 *
 * The primary key of mot_push_event makes it exactly-once: of two triggers racing for an event, the
 * second's insert waits for the first's and then does nothing.
 */
export async function enqueueMotPushes(database: DatabaseHandle, options: EnqueueOptions): Promise<EnqueueResult> {
  const now = options.now ?? Date.now();
  const notBefore = new Date(nextSendableAt(now, options.quietHours ?? null)).toISOString();
  const onlyStaff = options.staffId === undefined ? sql`` : sql`and e.staff_id = ${options.staffId}`;
  const [result] = await selectRows(
    database.db,
    rowsQuery<{ cards: number; events: number }>(sql`
      with candidates as (
        select e.id, e.staff_id, e.corp_id,
               (e.status = 'new' and not s.mot_push_opt_out and s.active
                 and e.rule <> all(${sql.raw(`ARRAY[${NOT_ANNOUNCED_RULES.map((rule) => `'${rule}'`).join(',')}]::text[]`)})) as announce
          from mot_event e
          join staff s on s.id = e.staff_id
         where e.created_at > now() - ${sql.raw(`interval '${ANNOUNCE_WINDOW}'`)} ${onlyStaff}
           and not exists (select 1 from mot_push_event pe where pe.event_id = e.id)
           and (e.cash_io_hkd is null or e.cash_io_hkd >= s.min_cash_io)
      ),
      managers as (
        select staff_id, min(corp_id) as corp_id from candidates where announce group by staff_id
      ),
      cards as (
        insert into mot_push (corp_id, staff_id, reason, not_before)
        select corp_id, staff_id, ${options.reason}, ${notBefore}::timestamptz from managers
        on conflict (staff_id) where status = 'pending'
          do update set not_before = mot_push.not_before
        returning id, staff_id
      ),
      announced as (
        insert into mot_push_event (event_id, push_id)
        select u.id, coalesce(c.id, 0)
          from candidates u
          left join cards c on c.staff_id = u.staff_id and u.announce
        on conflict (event_id) do nothing
        returning push_id
      )
      select (select count(*) from cards)::int as cards,
             (select count(*) from announced where push_id > 0)::int as events
    `),
  );
  return result ?? { cards: 0, events: 0 };
}
