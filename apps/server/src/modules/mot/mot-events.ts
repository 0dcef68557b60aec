import { sql } from 'drizzle-orm';
import { ErrorCode, type ContactPurpose, type MotRule, type ServiceChannel, type ServiceRecord } from '@broker/contract';
import type { Database } from '../../db/client';
import { columnName, float8, valueList, rowsQuery, selection, selectQuery, selectRows, tableAs } from '../../db/sql-rows';
import { ApiError } from '../../http/api-error';
import type { Caller } from '../../http/caller';
import { addContactRecord } from '../contact';
import { c, customerSummaryQuery, e, recordsOfEvents } from './mot.repository';
import { ownEvent, toCustomer, toEvent } from './mot.service';

/** Migration 0023 gave existing records the same. */
const PURPOSE_OF_RULE: Partial<Record<MotRule, ContactPurpose>> = {
  birthday: 'care',
  anniversary: 'care',
  id_expiry: 'document',
  risk_expiry: 'document',
  follow_up: 'follow_up',
};
const purposeOfRule = (rule: string): ContactPurpose => PURPOSE_OF_RULE[rule as MotRule] ?? 'service';

const eventOwnerColumns = selection({ eventId: float8(e.id), staffId: c.staffId, status: e.status });

export async function markEventsSeen(db: Database, caller: Caller, eventIds: number[]) {
  const unique = [...new Set(eventIds)];
  // With the customer's current manager, for 403 vs 404.
  const owners = await selectRows(
    db,
    selectQuery(
      eventOwnerColumns,
      sql`from ${tableAs(e)} join ${tableAs(c)} on ${c.id} = ${e.customerId}
         where ${e.corpId} = ${caller.corp.id} and ${e.id} in (${valueList(unique)})`,
    ),
  );
  const missing = unique.filter((id) => !owners.some((owner) => owner.eventId === id));
  if (missing.length > 0) throw ApiError.notFound(`eventIds: no event ${missing.join(', ')}`);
  const foreign = owners.filter((owner) => owner.staffId !== caller.staffId);
  if (foreign.length > 0)
    throw ApiError.forbidden(
      `eventIds: event ${foreign.map((owner) => owner.eventId).join(', ')} belongs to a customer who is not assigned to you`,
    );
  const seen = await selectRows(
    db,
    rowsQuery<{ id: number }>(
      sql`update ${tableAs(e)} set ${columnName(e.status)} = 'seen', ${columnName(e.seenAt)} = now()
            from ${tableAs(c)}
           where ${c.id} = ${e.customerId} and ${c.staffId} = ${caller.staffId} and ${e.corpId} = ${caller.corp.id}
             and ${e.status} = 'new' and ${e.id} in (${valueList(unique)})
          returning ${float8(e.id)} as id`,
    ),
  );
  return { updated: seen.length };
}

export async function getTodoTaskDetail(db: Database, caller: Caller, eventId: number) {
  const event = await ownEvent(db, caller, eventId);
  const [[customer], records] = await Promise.all([
    selectRows(db, customerSummaryQuery(caller.corp.id, event.customerId)),
    recordsOfEvents(db, [eventId]),
  ]);
  return { event: toEvent(event, records[0]), customer: toCustomer(customer!) };
}

/**
 * Handling writes a contact record linked to the event through the contact log's one write (ADR 0038). Of two
 * concurrent handles the second finds the event handled under its row lock: 090409, never a second record.
 */
export async function handleEvent(
  db: Database,
  caller: Caller,
  input: { eventId: number; channel: ServiceChannel; note: string; outcome?: string | null | undefined; servedAt?: number | undefined },
  lockHours: number,
): Promise<ServiceRecord> {
  const event = await ownEvent(db, caller, input.eventId);
  if (event.status === 'handled') throw ApiError.conflict(`eventId: event ${input.eventId} has already been handled`);
  const record = await addContactRecord(
    db,
    caller,
    {
      customerId: event.customerId,
      channel: input.channel,
      purpose: purposeOfRule(event.rule),
      note: input.note,
      outcome: input.outcome,
      servedAt: input.servedAt,
      eventIds: [input.eventId],
    },
    lockHours,
  ).catch((error: unknown) => {
    if (error instanceof ApiError && error.code === ErrorCode.CONFLICT)
      throw ApiError.conflict(`eventId: event ${input.eventId} has already been handled`);
    throw error;
  });
  return {
    recordId: record.recordId,
    customerId: record.customerId,
    customerName: record.customerName,
    eventId: input.eventId,
    rule: event.rule as MotRule,
    channel: record.channel,
    note: record.note,
    outcome: record.outcome,
    servedAt: record.servedAt,
  };
}
