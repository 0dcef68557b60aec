import { sql, type SQL } from 'drizzle-orm';
import type { ContactRecord } from '@broker/contract';
import type { Database, Tx } from '../../db/client';
import type { StaffScope } from '../../http/caller';
import {
  asText,
  columnNames,
  epochMs,
  float8,
  hkDays,
  renderedOnce,
  rowsQuery,
  selection,
  selectQuery,
  selectRows,
  tableAlias,
  tableAs,
  type RowOf,
} from '../../db/sql-rows';
import { contactRecordEvents, contactRecords, customers, motEvents, staff } from '../../db/schema';

export const r = tableAlias(contactRecords, 'r');
const c = tableAlias(customers, 'c');
const s = tableAlias(staff, 's');
const e = tableAlias(motEvents, 'e');
const l = tableAlias(contactRecordEvents, 'l');
const f = tableAlias(motEvents, 'f');
const cursor = tableAlias(contactRecords, 'k');

export const FOLLOW_UP_RULE = 'follow_up';

/** What the manager wrote (RecordContent but `servedAt`), for both selections below. */
const contentColumns = {
  channel: r.channel,
  purpose: r.purpose,
  note: r.note,
  outcome: r.outcome,
  nextStep: r.nextStep,
  nextStepDate: asText(r.nextStepDate),
  suitability: r.suitability,
};

/** Links and the follow-up belong to the thread (the first version's id), so every version shows them. */
const recordColumns = selection({
  recordId: float8(r.id),
  threadId: float8(r.threadId),
  version: r.version,
  latest: sql<boolean>`${r.supersededBy} is null`,
  customerId: float8(r.customerId),
  customerName: sql<string>`coalesce(nullif(${c.nameCn}, ''), ${c.nameEn})`,
  customerNo: c.customerNo,
  staffId: r.staffId,
  staffName: s.name,
  ...contentColumns,
  events: sql<
    ContactRecord['events']
  >`(select coalesce(jsonb_agg(jsonb_build_object('eventId', ${e.id}::float8, 'rule', ${e.rule}, 'dueDate', ${e.dueDate}::text) order by ${e.id}), '[]'::jsonb)
      from ${tableAs(l)} join ${tableAs(e)} on ${e.id} = ${l.motEventId} where ${l.recordId} = ${r.threadId})`,
  followsRecordId: float8(r.followsRecordId),
  // Found by mot_event_fact_uq; the rule written out: a selection binds no values.
  followUpEventId: sql<number | null>`(select ${f.id}::float8 from ${tableAs(f)}
      where ${f.rule} = 'follow_up' and ${f.customerId} = ${r.customerId} and ${f.factKey} = ${r.threadId}::text)`,
  servedAt: epochMs(r.servedAt),
  createdAt: epochMs(r.createdAt),
  locksAt: epochMs(r.locksAt),
  locked: sql<boolean>`(${r.locksAt} <= now() or ${r.supersededBy} is not null)`,
  correctionReason: r.correctionReason,
  edits: r.edits,
  supersededAt: epochMs(r.supersededAt),
});
export type RecordRow = RowOf<typeof recordColumns>;
const recordsJoined = renderedOnce(
  sql`${tableAs(r)} join ${tableAs(c)} on ${c.id} = ${r.customerId} join ${tableAs(s)} on ${s.id} = ${r.staffId}`,
);

const customerColumns = selection({
  customerId: float8(c.id),
  customerNo: c.customerNo,
  staffId: c.staffId,
  openDate: asText(c.openDate),
});
export type CustomerRow = RowOf<typeof customerColumns>;

/** Read under the version's row lock. */
export const versionColumns = selection({
  recordId: float8(r.id),
  threadId: float8(r.threadId),
  version: r.version,
  customerId: float8(r.customerId),
  staffId: r.staffId,
  edits: r.edits,
  supersededBy: float8(r.supersededBy),
  locked: sql<boolean>`${r.locksAt} <= now()`,
  ...contentColumns,
  servedAt: epochMs(r.servedAt),
  followsRecordId: float8(r.followsRecordId),
});

const lockAfter = (hours: number) => sql`now() + ${hours * 3600}::float8 * interval '1 second'`;

/** As stored: the channel and purpose are text. */
export type RecordContent = Pick<ContactRecord, 'note' | 'outcome' | 'nextStep' | 'nextStepDate' | 'suitability' | 'servedAt'> & {
  channel: string;
  purpose: string;
};

export interface NewRecord extends RecordContent {
  customerId: number;
  eventIds: readonly number[];
  requestId: string | null;
}

interface NewVersion extends RecordContent {
  /** Null for a first version (its own id). */
  threadId: number | null;
  version: number;
  customerId: number;
  followsRecordId: number | null;
  correctionReason: string | null;
  /** Corrections have none. */
  requestId: string | null;
}

/**
 * One `follow_up` event per thread (fact_key = thread id) due on the next-step date: a new date moves a pending
 * one, a cleared date removes it; one already handled stays (the follow-up happened).
 */
export async function placeFollowUp(
  tx: Tx,
  scope: StaffScope,
  record: { threadId: number; customerId: number; nextStep: string | null; nextStepDate: string | null },
) {
  const factKey = String(record.threadId);
  if (!record.nextStepDate) {
    await tx.execute(
      sql`delete from ${motEvents} where ${motEvents.rule} = ${FOLLOW_UP_RULE} and ${motEvents.customerId} = ${record.customerId}
             and ${motEvents.factKey} = ${factKey} and ${motEvents.status} <> 'handled'
             and not exists (select from ${contactRecordEvents} where ${contactRecordEvents.motEventId} = ${motEvents.id})`,
    );
    return;
  }
  const facts = JSON.stringify({ recordId: record.threadId, nextStep: record.nextStep });
  // customer_name_en is filled by the trigger of migration 0009.
  await tx.execute(
    sql`insert into ${motEvents} (${columnNames(motEvents.corpId, motEvents.rule, motEvents.customerId)},
               ${columnNames(motEvents.staffId, motEvents.factKey, motEvents.dueDate, motEvents.facts)})
        values (${scope.corpId}, ${FOLLOW_UP_RULE}, ${record.customerId}, ${scope.staffId}, ${factKey}, ${record.nextStepDate}::date, ${facts}::jsonb)
        on conflict (rule, customer_id, fact_key) do update
           set due_date = excluded.due_date, facts = excluded.facts
         where ${motEvents}.status <> 'handled'`,
  );
}

/**
 * The one insert of a version: a first one (`threadId` null, its id drawn first to be its thread) or a
 * correction. Null when this staff already wrote the requestId (a retry that committed meanwhile).
 */
export async function insertVersion(tx: Tx, scope: StaffScope, version: NewVersion, lockHours: number): Promise<number | null> {
  const [next] = await selectRows(tx, rowsQuery<{ id: number }>(sql`select nextval('contact_record_id_seq')::float8 as id`));
  const id = next!.id;
  const inserted = await selectRows(
    tx,
    rowsQuery<{ id: number }>(
      sql`insert into ${contactRecords} (${columnNames(
        contactRecords.id,
        contactRecords.threadId,
        contactRecords.version,
        contactRecords.corpId,
        contactRecords.customerId,
        contactRecords.staffId,
        contactRecords.channel,
        contactRecords.purpose,
        contactRecords.note,
        contactRecords.outcome,
        contactRecords.nextStep,
        contactRecords.nextStepDate,
        contactRecords.suitability,
        contactRecords.servedAt,
        contactRecords.followsRecordId,
        contactRecords.correctionReason,
        contactRecords.locksAt,
        contactRecords.requestId,
      )})
          values (${id}, ${version.threadId ?? id}, ${version.version}, ${scope.corpId}, ${version.customerId}, ${scope.staffId},
                  ${version.channel}, ${version.purpose}, ${version.note}, ${version.outcome}, ${version.nextStep}, ${version.nextStepDate}::date,
                  ${version.suitability}, to_timestamp(${version.servedAt}::float8 / 1000), ${version.followsRecordId}, ${version.correctionReason},
                  ${lockAfter(lockHours)}, ${version.requestId}::uuid)
          on conflict (staff_id, request_id) where request_id is not null do nothing
          returning id::float8 as id`,
    ),
  );
  return inserted.length === 0 ? null : id;
}

export async function readRecord(executor: Pick<Database, 'execute'>, recordId: number) {
  const [row] = await selectRows(executor, selectQuery(recordColumns, sql`from ${recordsJoined} where ${r.id} = ${recordId}`));
  return row!;
}

export async function contactCustomer(db: Database, corpId: number, customerId: number) {
  const [row] = await selectRows(
    db,
    selectQuery(customerColumns, sql`from ${tableAs(c)} where ${c.corpId} = ${corpId} and ${c.id} = ${customerId}`),
    { prepare: true },
  );
  return row;
}

/** With the client's current manager (for 403 vs 404). */
export async function versionOwner(db: Database, corpId: number, recordId: number) {
  const [row] = await selectRows(
    db,
    rowsQuery<{ threadId: number; customerId: number; managerId: number }>(
      sql`select ${r.threadId}::float8 as "threadId", ${r.customerId}::float8 as "customerId", ${c.staffId} as "managerId"
            from ${tableAs(r)} join ${tableAs(c)} on ${c.id} = ${r.customerId}
           where ${r.id} = ${recordId} and ${r.corpId} = ${corpId}`,
    ),
    { prepare: true },
  );
  return row;
}

/** Newest first (contact_record_thread_idx). */
export async function threadOf(db: Database, threadId: number) {
  return selectRows(
    db,
    selectQuery(recordColumns, sql`from ${recordsJoined} where ${r.threadId} = ${threadId} order by ${r.version} desc`),
    { prepare: true },
  );
}

/** Latest versions, keyset-paged on (served_at, id) from contact_record_customer_latest_idx. */
export async function recordPage(
  db: Database,
  input: { customerId: number; channel?: string | undefined; after?: number | undefined; limit: number },
) {
  const conditions: SQL[] = [sql`${r.customerId} = ${input.customerId}`, sql`${r.supersededBy} is null`];
  if (input.channel) conditions.push(sql`${r.channel} = ${input.channel}`);
  if (input.after !== undefined) {
    conditions.push(
      sql`(${r.servedAt}, ${r.id}) < (select ${cursor.servedAt}, ${cursor.id} from ${tableAs(cursor)} where ${cursor.id} = ${input.after} and ${cursor.customerId} = ${input.customerId})`,
    );
  }
  return selectRows(
    db,
    selectQuery(
      recordColumns,
      sql`from ${recordsJoined} where ${sql.join(conditions, sql` and `)}
          order by ${r.servedAt} desc, ${r.id} desc limit ${input.limit + 1}`,
    ),
  );
}

/** Hong Kong days; oldest contact first. */
export async function allVersions(db: Database, input: { customerId: number; dateFrom?: string | undefined; dateTo?: string | undefined }) {
  const conditions: SQL[] = [sql`${r.customerId} = ${input.customerId}`];
  conditions.push(...hkDays(r.servedAt, input));
  return selectRows(
    db,
    selectQuery(
      recordColumns,
      sql`from ${recordsJoined} where ${sql.join(conditions, sql` and `)} order by ${r.servedAt}, ${r.threadId}, ${r.version}`,
    ),
  );
}
