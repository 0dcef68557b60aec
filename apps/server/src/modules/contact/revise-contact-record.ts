import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { ContactRecord, reviseContactRecord as reviseContactRecordEndpoint } from '@broker/contract';
import type { Database } from '../../db/client';
import { auditLog, contactRecords } from '../../db/schema';
import { columnName, rowsQuery, selectQuery, selectRows, tableAs } from '../../db/sql-rows';
import { ApiError } from '../../http/api-error';
import { scopeOf, type Caller } from '../../http/caller';
import { auditEntry } from '../audit';
import { insertVersion, placeFollowUp, r, readRecord, threadOf, versionColumns, type RecordContent } from './contact.repository';
import { blankToNull, content, ownCustomer, ownThread, toContactRecord } from './contact.service';

type ReviseInput = z.output<typeof reviseContactRecordEndpoint.request>;

const changedMeanwhile = (latestRecordId: number | null) =>
  ApiError.conflict(
    latestRecordId === null
      ? 'recordId: the record changed meanwhile; reload it and make the change again'
      : `recordId: the record changed meanwhile (it now stands as record ${latestRecordId}); reload it and make the change again`,
  );

/** For the audit trail, as every other audited change. */
function changedFields(before: RecordContent, after: RecordContent) {
  const fields = Object.keys(after) as (keyof RecordContent)[];
  const changed = fields.filter((field) => before[field] !== after[field]);
  return {
    before: Object.fromEntries(changed.map((field) => [field, before[field]])),
    after: Object.fromEntries(changed.map((field) => [field, after[field]])),
  };
}

/**
 * Under the version's row lock, so the second of two concurrent revises is refused. The caller's own unlocked
 * version is edited in place; any other gets a correction with a reason.
 */
export async function reviseContactRecord(db: Database, caller: Caller, request: ReviseInput, lockHours: number): Promise<ContactRecord> {
  const owner = await ownThread(db, caller, request.recordId);
  const customer = await ownCustomer(db, caller, owner.customerId);
  const [version] = (await threadOf(db, owner.threadId)).filter((each) => each.recordId === request.recordId);
  const scope = scopeOf(caller);
  const input = {
    recordId: request.recordId,
    edits: request.edits,
    // Left out, the time of the contact stays.
    content: content(customer, request, request.servedAt ?? version!.servedAt),
    correctionReason: blankToNull(request.correctionReason),
  };
  const record = await db.transaction(async (tx) => {
    const [current] = await selectRows(
      tx,
      selectQuery(versionColumns, sql`from ${tableAs(r)} where ${r.id} = ${input.recordId} for update`),
    );
    if (!current) throw changedMeanwhile(null);
    if (current.supersededBy !== null) {
      const [latest] = await selectRows(
        tx,
        rowsQuery<{ id: number }>(
          sql`select ${r.id}::float8 as id from ${tableAs(r)} where ${r.threadId} = ${current.threadId} and ${r.supersededBy} is null`,
        ),
      );
      throw changedMeanwhile(latest?.id ?? null);
    }
    if (current.edits !== input.edits) throw changedMeanwhile(current.recordId);
    const change = changedFields(current, input.content);
    const isEdit = !current.locked && current.staffId === scope.staffId;
    if (isEdit) {
      if (Object.keys(change.after).length === 0) return readRecord(tx, current.recordId);
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
        auditEntry(scope, 'contact.edit', 'contact_record', String(current.recordId), change.before, {
          ...change.after,
          customerId: current.customerId,
        }),
      );
      return readRecord(tx, current.recordId);
    }
    if (!input.correctionReason)
      throw ApiError.validation('correctionReason', 'is required to correct a locked record, or one written by someone else');
    const content = input.content;
    const id = (await insertVersion(
      tx,
      scope,
      {
        ...content,
        threadId: current.threadId,
        version: current.version + 1,
        customerId: current.customerId,
        followsRecordId: current.followsRecordId,
        correctionReason: input.correctionReason,
        requestId: null,
      },
      lockHours,
    ))!;
    // The only change a locked version takes (trigger contact_record_guards_update).
    await tx.execute(
      sql`update ${contactRecords} set ${columnName(contactRecords.supersededBy)} = ${id}, ${columnName(contactRecords.supersededAt)} = now()
           where ${contactRecords.id} = ${current.recordId}`,
    );
    await placeFollowUp(tx, scope, { threadId: current.threadId, customerId: current.customerId, ...content });
    await tx
      .insert(auditLog)
      .values(
        auditEntry(
          scope,
          'contact.correct',
          'contact_record',
          String(id),
          { ...change.before, recordId: current.recordId },
          { ...change.after, recordId: id, correctionReason: input.correctionReason, customerId: current.customerId },
        ),
      );
    return readRecord(tx, id);
  });
  return toContactRecord(record);
}
