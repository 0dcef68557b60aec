import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { StaffScope } from '../../http/caller';
import {
  asText,
  columnName,
  epochMs,
  float8,
  renderedOnce,
  rowsQuery,
  selection,
  selectQuery,
  selectRows,
  tableAlias,
  tableAs,
  type RowOf,
} from '../../db/sql-rows';
import { auditLog, contactRecordEvents, contactRecords, customers, motEvents, staff } from '../../db/schema';

const r = tableAlias(contactRecords, 'r');
const c = tableAlias(customers, 'c');
const s = tableAlias(staff, 's');
const e = tableAlias(motEvents, 'e');
const l = tableAlias(contactRecordEvents, 'l');
const f = tableAlias(motEvents, 'f');
const cursor = tableAlias(contactRecords, 'k');

/** The MOT rule a record's next step raises. */
export const FOLLOW_UP_RULE = 'follow_up';

/** One linked event as the record's `events` JSON holds it. */
interface LinkedEvent {
  eventId: number;
  rule: string;
  dueDate: string;
}

/** What the manager wrote in a version of a record (RecordContent, but `servedAt`), for both selections below. */
const contentColumns = {
  channel: r.channel,
  purpose: r.purpose,
  note: r.note,
  outcome: r.outcome,
  nextStep: r.nextStep,
  nextStepDate: asText(r.nextStepDate),
  suitability: r.suitability,
};

/**
 * A version of a record as the contract shows it: `r` with its customer `c` and author `s`. Links
 * and the follow-up belong to the thread (the first version's id), so every version shows them.
 */
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
    LinkedEvent[]
  >`(select coalesce(jsonb_agg(jsonb_build_object('eventId', ${e.id}::float8, 'rule', ${e.rule}, 'dueDate', ${e.dueDate}::text) order by ${e.id}), '[]'::jsonb)
      from ${tableAs(l)} join ${tableAs(e)} on ${e.id} = ${l.motEventId} where ${l.recordId} = ${r.threadId})`,
  followsRecordId: float8(r.followsRecordId),
  // mot_event_fact_uq (rule, customer_id, fact_key) finds it. The rule is FOLLOW_UP_RULE, written out: a selection binds no values.
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

/** What a revise reads of the version it changes, under its row lock. */
const versionColumns = selection({
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
export type VersionRow = RowOf<typeof versionColumns>;

const idList = (ids: readonly number[]) =>
  sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );

const hkDayStart = (day: string) => sql`(${day}::date::timestamp at time zone 'Asia/Hong_Kong')`;
const lockAfter = (hours: number) => sql`now() + ${hours * 3600}::float8 * interval '1 second'`;

/** The fields a manager writes, as stored. */
export interface RecordContent {
  channel: string;
  purpose: string;
  note: string;
  outcome: string | null;
  nextStep: string | null;
  nextStepDate: string | null;
  suitability: string | null;
  servedAt: number;
}

export interface NewRecord extends RecordContent {
  customerId: number;
  eventIds: readonly number[];
  requestId: string | null;
}

/** One version as `insertVersion` writes it; its author and corp are the caller's scope. */
interface NewVersion extends RecordContent {
  /** The record's thread, or null for a first version (its own id). */
  threadId: number | null;
  version: number;
  customerId: number;
  followsRecordId: number | null;
  correctionReason: string | null;
  /** A first version's retry key (corrections have none). */
  requestId: string | null;
}

/** Why a write stopped: the service turns each into the error the contract names. */
export type WriteRefusal =
  | { refused: 'eventMissing'; eventIds: number[] }
  | { refused: 'eventOfAnotherClient'; eventIds: number[] }
  | { refused: 'eventHandled'; eventIds: number[] }
  | { refused: 'requestIdReused' }
  | { refused: 'changedMeanwhile'; latestRecordId: number | null }
  | { refused: 'reasonRequired' };

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

type AuditEntry = typeof auditLog.$inferInsert;

/** An audit-trail entry about a contact record (or a customer's records), by the staff in scope. */
function recordAudit(
  scope: StaffScope,
  action: string,
  entityId: string,
  before: AuditEntry['before'],
  after: AuditEntry['after'],
): AuditEntry {
  return { corpId: scope.corpId, actorStaffId: scope.staffId, action, entity: 'contact_record', entityId, before, after };
}

/** The changed fields only, before and after, for the audit trail (as every other audited change). */
function changedFields(before: RecordContent, after: RecordContent) {
  const fields = Object.keys(after) as (keyof RecordContent)[];
  const changed = fields.filter((field) => before[field] !== after[field]);
  return {
    before: Object.fromEntries(changed.map((field) => [field, before[field]])),
    after: Object.fromEntries(changed.map((field) => [field, after[field]])),
  };
}

export function createContactRepository(db: Database, options: { lockHours: number }) {
  /**
   * The record's next step on the MOT list: one `follow_up` event per thread (fact_key = thread id),
   * due on the next-step date. A new date moves a pending one; a cleared date removes a pending one;
   * one already handled stays as it was (the follow-up happened).
   */
  async function placeFollowUp(
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
    // The customer_name_en sort key is filled by the trigger of migration 0009.
    await tx.execute(
      sql`insert into ${motEvents} (${columnName(motEvents.corpId)}, ${columnName(motEvents.rule)}, ${columnName(motEvents.customerId)},
                 ${columnName(motEvents.staffId)}, ${columnName(motEvents.factKey)}, ${columnName(motEvents.dueDate)}, ${columnName(motEvents.facts)})
          values (${scope.corpId}, ${FOLLOW_UP_RULE}, ${record.customerId}, ${scope.staffId}, ${factKey}, ${record.nextStepDate}::date, ${facts}::jsonb)
          on conflict (rule, customer_id, fact_key) do update
             set due_date = excluded.due_date, facts = excluded.facts
           where ${motEvents}.status <> 'handled'`,
    );
  }

  /**
   * THE one insert of a contact record version, for a record's first version (`threadId` null: the
   * version opens its own thread, its id drawn first so the thread id can be written with it) and a
   * correction's next one. Answers the new version's id, or null when a first version's requestId was
   * already written by this staff (a retry that committed while this attempt waited on the unique index).
   */
  async function insertVersion(tx: Tx, scope: StaffScope, version: NewVersion): Promise<number | null> {
    const [next] = await selectRows(tx, rowsQuery<{ id: number }>(sql`select nextval('contact_record_id_seq')::float8 as id`));
    const id = next!.id;
    const inserted = await selectRows(
      tx,
      rowsQuery<{ id: number }>(
        sql`insert into ${contactRecords} (${sql.join(
          [
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
          ].map(columnName),
          sql`, `,
        )})
            values (${id}, ${version.threadId ?? id}, ${version.version}, ${scope.corpId}, ${version.customerId}, ${scope.staffId},
                    ${version.channel}, ${version.purpose}, ${version.note}, ${version.outcome}, ${version.nextStep}, ${version.nextStepDate}::date,
                    ${version.suitability}, to_timestamp(${version.servedAt}::float8 / 1000), ${version.followsRecordId}, ${version.correctionReason},
                    ${lockAfter(options.lockHours)}, ${version.requestId}::uuid)
            on conflict (staff_id, request_id) where request_id is not null do nothing
            returning id::float8 as id`,
      ),
    );
    return inserted.length === 0 ? null : id;
  }

  async function readRecord(executor: Pick<Database, 'execute'>, recordId: number) {
    const [row] = await selectRows(executor, selectQuery(recordColumns, sql`from ${recordsJoined} where ${r.id} = ${recordId}`));
    return row!;
  }

  return {
    async customer(corpId: number, customerId: number) {
      const [row] = await selectRows(
        db,
        selectQuery(customerColumns, sql`from ${tableAs(c)} where ${c.corpId} = ${corpId} and ${c.id} = ${customerId}`),
        { prepare: true },
      );
      return row;
    },

    /** Any version by id within the corp, with the client's current manager (for 403 vs 404). */
    async versionOwner(corpId: number, recordId: number) {
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
    },

    /** Every version of a thread, newest first (contact_record_thread_idx). */
    async thread(threadId: number) {
      return selectRows(
        db,
        selectQuery(recordColumns, sql`from ${recordsJoined} where ${r.threadId} = ${threadId} order by ${r.version} desc`),
        { prepare: true },
      );
    },

    /**
     * A client's log: latest versions, newest contact first, keyset-paged on (served_at, id) from
     * contact_record_customer_latest_idx. `after` is the last record id of the previous page.
     */
    async page(input: { customerId: number; channel?: string | undefined; after?: number | undefined; limit: number }) {
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
    },

    /** Every version of every record of the client whose contact falls in the range (Hong Kong days), oldest contact first. */
    async allVersions(input: { customerId: number; dateFrom?: string | undefined; dateTo?: string | undefined }) {
      const conditions: SQL[] = [sql`${r.customerId} = ${input.customerId}`];
      if (input.dateFrom) conditions.push(sql`${r.servedAt} >= ${hkDayStart(input.dateFrom)}`);
      if (input.dateTo) conditions.push(sql`${r.servedAt} < ${hkDayStart(input.dateTo)} + interval '1 day'`);
      return selectRows(
        db,
        selectQuery(
          recordColumns,
          sql`from ${recordsJoined} where ${sql.join(conditions, sql` and `)} order by ${r.servedAt}, ${r.threadId}, ${r.version}`,
        ),
      );
    },

    /**
     * THE one way a contact record is written (the contact log's add and MOT's handle both come here),
     * in one transaction: the record, its event links (pending events become handled), the follow-up
     * its next step raises, and the audit entries. A retry with the same requestId returns the record
     * the first attempt wrote. `handledBy` names the MOT audit entry for each event handled.
     */
    async add(scope: StaffScope, input: NewRecord): Promise<{ record: RecordRow; deduplicated: boolean } | WriteRefusal> {
      return db.transaction(async (tx) => {
        const earlier = async () => {
          const [row] = await selectRows(
            tx,
            rowsQuery<{ id: number; customerId: number }>(
              sql`select ${r.id}::float8 as id, ${r.customerId}::float8 as "customerId" from ${tableAs(r)}
                   where ${r.staffId} = ${scope.staffId} and ${r.requestId} = ${input.requestId}`,
            ),
          );
          return row;
        };
        if (input.requestId) {
          const found = await earlier();
          if (found) {
            return found.customerId === input.customerId
              ? { record: await readRecord(tx, found.id), deduplicated: true }
              : { refused: 'requestIdReused' as const };
          }
        }
        const eventIds = [...new Set(input.eventIds)].sort((a, b) => a - b);
        // Locked in id order, so two writers linking the same events cannot deadlock.
        const events =
          eventIds.length === 0
            ? []
            : await selectRows(
                tx,
                rowsQuery<{ id: number; customerId: number; status: string; rule: string; factKey: string }>(
                  sql`select ${motEvents.id}::float8 as id, ${motEvents.customerId}::float8 as "customerId", ${motEvents.status} as status,
                             ${motEvents.rule} as rule, ${motEvents.factKey} as "factKey"
                        from ${motEvents} where ${motEvents.corpId} = ${scope.corpId} and ${motEvents.id} in (${idList(eventIds)})
                       order by ${motEvents.id} for update`,
                ),
              );
        const missing = eventIds.filter((id) => !events.some((event) => event.id === id));
        if (missing.length > 0) return { refused: 'eventMissing' as const, eventIds: missing };
        const foreign = events.filter((event) => event.customerId !== input.customerId).map((event) => event.id);
        if (foreign.length > 0) return { refused: 'eventOfAnotherClient' as const, eventIds: foreign };
        const handled = events.filter((event) => event.status === 'handled').map((event) => event.id);
        if (handled.length > 0) return { refused: 'eventHandled' as const, eventIds: handled };
        // Completing a follow-up links the new record to the record whose next step it was.
        const followUp = events.find((event) => event.rule === FOLLOW_UP_RULE);
        const followsRecordId = followUp ? Number(followUp.factKey) : null;

        const id = await insertVersion(tx, scope, {
          ...input,
          threadId: null,
          version: 1,
          followsRecordId,
          correctionReason: null,
        });
        if (id === null) {
          // A retry of the same attempt committed while this one waited on the unique index: answer its record.
          const found = await earlier();
          return found && found.customerId === input.customerId
            ? { record: await readRecord(tx, found.id), deduplicated: true }
            : { refused: 'requestIdReused' as const };
        }
        if (events.length > 0) {
          await tx.execute(
            sql`update ${motEvents} set ${columnName(motEvents.status)} = 'handled', ${columnName(motEvents.handledAt)} = now(),
                       ${columnName(motEvents.seenAt)} = coalesce(${motEvents.seenAt}, now())
                 where ${motEvents.id} in (${idList(eventIds)})`,
          );
          await tx.insert(contactRecordEvents).values(eventIds.map((motEventId) => ({ recordId: id, motEventId })));
        }
        if (input.nextStepDate) await placeFollowUp(tx, scope, { threadId: id, ...input });
        await tx.insert(auditLog).values([
          recordAudit(scope, 'contact.add', String(id), null, {
            customerId: input.customerId,
            channel: input.channel,
            purpose: input.purpose,
            servedAt: input.servedAt,
            eventIds,
            ...(input.nextStepDate ? { nextStepDate: input.nextStepDate } : {}),
          }),
          // Each event handled keeps its own entry, as MOT's handle always wrote.
          ...events.map((event) => ({
            corpId: scope.corpId,
            actorStaffId: scope.staffId,
            action: 'mot.handle',
            entity: 'mot_event',
            entityId: String(event.id),
            before: { status: event.status },
            after: { status: 'handled', serviceRecordId: id, channel: input.channel, outcome: input.outcome },
          })),
        ]);
        return { record: await readRecord(tx, id), deduplicated: false };
      });
    },

    /**
     * Changes the version `recordId` names, under its row lock, so of two concurrent revises of one
     * version the second finds it superseded or edited and is refused. `asCorrection` is decided by
     * the caller from the lock and the author; the lock is re-read here under the row lock and wins.
     */
    async revise(
      scope: StaffScope,
      input: { recordId: number; edits: number; content: RecordContent; correctionReason: string | null },
    ): Promise<{ record: RecordRow; mode: 'edit' | 'correct' | 'unchanged' } | WriteRefusal> {
      return db.transaction(async (tx) => {
        const [current] = await selectRows(
          tx,
          selectQuery(versionColumns, sql`from ${tableAs(r)} where ${r.id} = ${input.recordId} for update`),
        );
        if (!current) return { refused: 'changedMeanwhile' as const, latestRecordId: null };
        if (current.supersededBy !== null) {
          const [latest] = await selectRows(
            tx,
            rowsQuery<{ id: number }>(
              sql`select ${r.id}::float8 as id from ${tableAs(r)} where ${r.threadId} = ${current.threadId} and ${r.supersededBy} is null`,
            ),
          );
          return { refused: 'changedMeanwhile' as const, latestRecordId: latest?.id ?? null };
        }
        if (current.edits !== input.edits) return { refused: 'changedMeanwhile' as const, latestRecordId: current.recordId };
        const before: RecordContent = {
          channel: current.channel,
          purpose: current.purpose,
          note: current.note,
          outcome: current.outcome,
          nextStep: current.nextStep,
          nextStepDate: current.nextStepDate,
          suitability: current.suitability,
          servedAt: current.servedAt,
        };
        const change = changedFields(before, input.content);
        const isEdit = !current.locked && current.staffId === scope.staffId;
        if (isEdit) {
          if (Object.keys(change.after).length === 0) return { record: await readRecord(tx, current.recordId), mode: 'unchanged' as const };
          const content = input.content;
          await tx.execute(
            sql`update ${contactRecords} set
                  ${columnName(contactRecords.channel)} = ${content.channel}, ${columnName(contactRecords.purpose)} = ${content.purpose},
                  ${columnName(contactRecords.note)} = ${content.note}, ${columnName(contactRecords.outcome)} = ${content.outcome},
                  ${columnName(contactRecords.nextStep)} = ${content.nextStep}, ${columnName(contactRecords.nextStepDate)} = ${content.nextStepDate}::date,
                  ${columnName(contactRecords.suitability)} = ${content.suitability},
                  ${columnName(contactRecords.servedAt)} = to_timestamp(${content.servedAt}::float8 / 1000),
                  ${columnName(contactRecords.edits)} = ${contactRecords.edits} + 1
                where ${contactRecords.id} = ${current.recordId}`,
          );
          await placeFollowUp(tx, scope, { threadId: current.threadId, customerId: current.customerId, ...content });
          await tx.insert(auditLog).values(
            recordAudit(scope, 'contact.edit', String(current.recordId), change.before, {
              ...change.after,
              customerId: current.customerId,
            }),
          );
          return { record: await readRecord(tx, current.recordId), mode: 'edit' as const };
        }
        if (!input.correctionReason) return { refused: 'reasonRequired' as const };
        const content = input.content;
        // Without a requestId the insert always writes: the id is never null.
        const id = (await insertVersion(tx, scope, {
          ...content,
          threadId: current.threadId,
          version: current.version + 1,
          customerId: current.customerId,
          followsRecordId: current.followsRecordId,
          correctionReason: input.correctionReason,
          requestId: null,
        }))!;
        // The only change a locked version takes (trigger contact_record_guards_update).
        await tx.execute(
          sql`update ${contactRecords} set ${columnName(contactRecords.supersededBy)} = ${id}, ${columnName(contactRecords.supersededAt)} = now()
               where ${contactRecords.id} = ${current.recordId}`,
        );
        await placeFollowUp(tx, scope, { threadId: current.threadId, customerId: current.customerId, ...content });
        await tx
          .insert(auditLog)
          .values(
            recordAudit(
              scope,
              'contact.correct',
              String(id),
              { ...change.before, recordId: current.recordId },
              { ...change.after, recordId: id, correctionReason: input.correctionReason, customerId: current.customerId },
            ),
          );
        return { record: await readRecord(tx, id), mode: 'correct' as const };
      });
    },

    async auditExport(scope: StaffScope, input: { customerId: number; dateFrom: string | null; dateTo: string | null; records: number }) {
      await db.insert(auditLog).values(
        recordAudit(scope, 'contact.export', `customer:${input.customerId}`, null, {
          customerId: input.customerId,
          dateFrom: input.dateFrom,
          dateTo: input.dateTo,
          records: input.records,
        }),
      );
    },
  };
}

export type ContactRepository = ReturnType<typeof createContactRepository>;
