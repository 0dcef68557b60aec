import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { ContactRecord, addContactRecord as addContactRecordEndpoint } from '@broker/contract';
import type { Database } from '../../db/client';
import { auditLog, contactRecordEvents, motEvents } from '../../db/schema';
import { columnName, valueList, rowsQuery, selectRows, tableAs } from '../../db/sql-rows';
import { ApiError } from '../../http/api-error';
import { scopeOf, type Caller } from '../../http/caller';
import { auditEntry } from '../audit';
import { FOLLOW_UP_RULE, insertVersion, placeFollowUp, r, readRecord, type NewRecord } from './contact.repository';
import { content, ownCustomer, toContactRecord } from './contact.service';

type AddInput = z.output<typeof addContactRecordEndpoint.request>;

const requestIdReused = () => ApiError.conflict('requestId: already used for a record about another client; send a new one');

/**
 * The one write of a contact record (the log's add and MOT's handle, ADR 0038), in one transaction: the record,
 * its event links (pending events handled), the follow-up its next step raises, the audit entries. A retry
 * with the same requestId returns the record the first attempt wrote.
 */
export async function addContactRecord(db: Database, caller: Caller, request: AddInput, lockHours: number): Promise<ContactRecord> {
  const customer = await ownCustomer(db, caller, request.customerId);
  const scope = scopeOf(caller);
  const input: NewRecord = {
    ...content(customer, request, request.servedAt ?? Date.now()),
    customerId: request.customerId,
    eventIds: request.eventIds ?? [],
    requestId: request.requestId ?? null,
  };
  const record = await db.transaction(async (tx) => {
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
        if (found.customerId !== input.customerId) throw requestIdReused();
        return readRecord(tx, found.id);
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
                    from ${motEvents} where ${motEvents.corpId} = ${scope.corpId} and ${motEvents.id} in (${valueList(eventIds)})
                   order by ${motEvents.id} for update`,
            ),
          );
    const missing = eventIds.filter((id) => !events.some((event) => event.id === id));
    if (missing.length > 0) throw ApiError.notFound(`eventIds: no event ${missing.join(', ')}`);
    const foreign = events.filter((event) => event.customerId !== input.customerId).map((event) => event.id);
    if (foreign.length > 0) throw ApiError.validation('eventIds', `event ${foreign.join(', ')} is not about this client`);
    const handled = events.filter((event) => event.status === 'handled').map((event) => event.id);
    if (handled.length > 0) throw ApiError.conflict(`eventIds: event ${handled.join(', ')} has already been handled`);
    const followUp = events.find((event) => event.rule === FOLLOW_UP_RULE);
    const followsRecordId = followUp ? Number(followUp.factKey) : null;

    const id = await insertVersion(tx, scope, { ...input, threadId: null, version: 1, followsRecordId, correctionReason: null }, lockHours);
    if (id === null) {
      // A retry of the same attempt committed while this one waited on the unique index.
      const found = await earlier();
      if (found?.customerId !== input.customerId) throw requestIdReused();
      return readRecord(tx, found.id);
    }
    if (events.length > 0) {
      await tx.execute(
        sql`update ${motEvents} set ${columnName(motEvents.status)} = 'handled', ${columnName(motEvents.handledAt)} = now(),
                   ${columnName(motEvents.seenAt)} = coalesce(${motEvents.seenAt}, now())
             where ${motEvents.id} in (${valueList(eventIds)})`,
      );
      await tx.insert(contactRecordEvents).values(eventIds.map((motEventId) => ({ recordId: id, motEventId })));
    }
    if (input.nextStepDate) await placeFollowUp(tx, scope, { threadId: id, ...input });
    const handledNow = { status: 'handled', serviceRecordId: id, channel: input.channel, outcome: input.outcome };
    await tx.insert(auditLog).values([
      auditEntry(scope, 'contact.add', 'contact_record', String(id), null, {
        customerId: input.customerId,
        channel: input.channel,
        purpose: input.purpose,
        servedAt: input.servedAt,
        eventIds,
        ...(input.nextStepDate ? { nextStepDate: input.nextStepDate } : {}),
      }),
      // Each event handled keeps its own entry, as MOT's handle always wrote.
      ...events.map((event) => auditEntry(scope, 'mot.handle', 'mot_event', String(event.id), { status: event.status }, handledNow)),
    ]);
    return readRecord(tx, id);
  });
  return toContactRecord(record);
}
