import { sql } from 'drizzle-orm';
import type { SnoozeReason } from '@broker/contract';
import type { Database } from '../../db/client';
import type { StaffScope } from '../../http/caller';
import { ApiError } from '../../http/api-error';
import { columnName, epochMs, float8, asText, rowsQuery, selectQuery, selection, selectRows, tableAlias, tableAs } from '../../db/sql-rows';
import { auditLog, motEventSnoozes, motEvents, staff } from '../../db/schema';
import { auditEntry } from '../audit';

/** Snoozes (ADR 0041): the event moves to a later day; `mot_event_snooze` and the audit log keep each one. */

const e = tableAlias(motEvents, 'e');
const z = tableAlias(motEventSnoozes, 'z');
const st = tableAlias(staff, 'st');

const snoozeColumns = selection({
  snoozeId: float8(z.id),
  staffName: st.name,
  snoozedAt: epochMs(z.snoozedAt),
  fromDate: asText(z.fromDate),
  toDate: asText(z.toDate),
  reason: z.reason,
  note: z.note,
});

// The contract's enum describes `reason`; the response schema re-checks it.
const toSnooze = <Row extends { reason: string }>(row: Row) => ({ ...row, reason: row.reason as SnoozeReason });

export async function snoozesOf(db: Database, eventId: number) {
  const rows = await selectRows(
    db,
    selectQuery(
      snoozeColumns,
      sql`from ${tableAs(z)} join ${tableAs(st)} on ${st.id} = ${z.staffId} where ${z.eventId} = ${eventId} order by ${z.id} desc`,
    ),
    { prepare: true },
  );
  return rows.map(toSnooze);
}

/** Under the event's row lock (a concurrent handle or snooze serialises); a handled event is refused (090409). */
export async function writeSnooze(
  db: Database,
  scope: StaffScope,
  input: { eventId: number; until: string; reason: SnoozeReason; note: string | null },
) {
  return db.transaction(async (tx) => {
    const [locked] = await selectRows(
      tx,
      rowsQuery<{ status: string; dueDate: string }>(
        sql`select ${e.status} as status, ${e.dueDate}::text as "dueDate" from ${tableAs(e)} where ${e.id} = ${input.eventId} for update`,
      ),
    );
    if (!locked || locked.status === 'handled') throw ApiError.conflict(`eventId: event ${input.eventId} has already been handled`);
    await tx.execute(
      sql`update ${motEvents} set ${columnName(motEvents.dueDate)} = ${input.until}::date, ${columnName(motEvents.snoozedAt)} = now()
           where ${motEvents.id} = ${input.eventId}`,
    );
    const [inserted] = await tx
      .insert(motEventSnoozes)
      .values({
        corpId: scope.corpId,
        eventId: input.eventId,
        staffId: scope.staffId,
        fromDate: locked.dueDate,
        toDate: input.until,
        reason: input.reason,
        note: input.note,
      })
      .returning({ id: motEventSnoozes.id });
    const after = { dueDate: input.until, reason: input.reason, note: input.note };
    await tx
      .insert(auditLog)
      .values(auditEntry(scope, 'mot.snooze', 'mot_event', String(input.eventId), { dueDate: locked.dueDate }, after));
    const [row] = await selectRows(
      tx,
      selectQuery(snoozeColumns, sql`from ${tableAs(z)} join ${tableAs(st)} on ${st.id} = ${z.staffId} where ${z.id} = ${inserted!.id}`),
    );
    return toSnooze(row!);
  });
}
