import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../../db/client';
import { motEvents, motPushes, motPushEvents, staff } from '../../db/schema';
import { columnName, columnNames, rowsQuery, selection, selectRows, tableAlias, tableAs, type RowOf } from '../../db/sql-rows';
import { nextSendableAt, type QuietHours } from './quiet-hours';

/** The daily sweep, an import, a threshold change (setMinCashIO). */
export type PushReason = (typeof motPushes.$inferInsert)['reason'];

/** A follow-up is the manager's own next step. */
const NOT_ANNOUNCED_RULES = ['follow_up'];

export interface EnqueueOptions {
  reason: PushReason;
  /** Default every manager's. */
  staffId?: number;
  now?: number;
  quietHours?: QuietHours | null;
}

/** The daily sweep's `announce`: one card per manager with new events. */
export const announceSweep = (database: DatabaseHandle) => enqueueMotPushes(database, { reason: 'sweep' });

/** Candidates this long after they were raised (ADR 0042); a trigger follows its events within seconds. */
export const ANNOUNCE_WINDOW = '2 days';

const e = tableAlias(motEvents, 'e');
const s = tableAlias(staff, 's');
const pe = tableAlias(motPushEvents, 'pe');
const queued = selection({
  /** New, or merged into one already waiting. */
  cards: sql<number>`(select count(*) from cards)::int`,
  events: sql<number>`(select count(*) from announced where push_id > 0)::int`,
});
export type EnqueueResult = RowOf<typeof queued>;

/**
 * One card per manager with new, unannounced events, in one statement: candidates are the last two days'
 * events (BRIN on `created_at`) not in mot_push_event, large-money ones below the current threshold left for
 * later; each joins its manager's one pending card (`mot_push_one_pending_uq`: concurrent triggers meet on it),
 * or is marked 0 (opted out, no longer new, never announced). mot_push_event's key makes it exactly-once.
 */
export async function enqueueMotPushes(database: DatabaseHandle, options: EnqueueOptions): Promise<EnqueueResult> {
  const now = options.now ?? Date.now();
  const notBefore = new Date(nextSendableAt(now, options.quietHours ?? null)).toISOString();
  const onlyStaff = options.staffId === undefined ? sql`` : sql`and ${e.staffId} = ${options.staffId}`;
  const [result] = await selectRows(
    database.db,
    rowsQuery<EnqueueResult>(sql`
      with candidates as (
        select ${e.id}, ${e.staffId}, ${e.corpId},
               (${e.status} = 'new' and not ${s.motPushOptOut} and ${s.active}
                 and ${e.rule} <> all(${sql.raw(`ARRAY[${NOT_ANNOUNCED_RULES.map((rule) => `'${rule}'`).join(',')}]::text[]`)})) as announce
          from ${tableAs(e)}
          join ${tableAs(s)} on ${s.id} = ${e.staffId}
         where ${e.createdAt} > now() - ${sql.raw(`interval '${ANNOUNCE_WINDOW}'`)} ${onlyStaff}
           and not exists (select 1 from ${tableAs(pe)} where ${pe.eventId} = ${e.id})
           and (${e.cashIoHkd} is null or ${e.cashIoHkd} >= ${s.minCashIo})
      ),
      managers as (
        select staff_id, min(corp_id) as corp_id from candidates where announce group by staff_id
      ),
      cards as (
        insert into ${motPushes} (${columnNames(motPushes.corpId, motPushes.staffId, motPushes.reason, motPushes.notBefore)})
        select corp_id, staff_id, ${options.reason}, ${notBefore}::timestamptz from managers
        on conflict (${columnName(motPushes.staffId)}) where ${columnName(motPushes.status)} = 'pending'
          do update set ${columnName(motPushes.notBefore)} = ${motPushes.notBefore}
        returning ${motPushes.id}, ${motPushes.staffId}
      ),
      announced as (
        insert into ${motPushEvents} (${columnNames(motPushEvents.eventId, motPushEvents.pushId)})
        select u.id, coalesce(c.id, 0)
          from candidates u
          left join cards c on c.staff_id = u.staff_id and u.announce
        on conflict (${columnName(motPushEvents.eventId)}) do nothing
        returning ${motPushEvents.pushId}
      )
      select ${queued}
    `),
  );
  return result ?? { cards: 0, events: 0 };
}
