import type { MotCustomerSummary, MotEvent, MotRule, ServiceRecord } from '@broker/contract';
import { maskPhone } from '@broker/domain';
import type { Database } from '../../db/client';
import { ApiError } from '../../http/api-error';
import type { Caller } from '../../http/caller';
import { sql } from 'drizzle-orm';
import { staff } from '../../db/schema';
import { selectQuery, selectRows, tableAs } from '../../db/sql-rows';
import { c, e, ownedEventColumns, staffSettingsColumns, type CustomerSummaryRow, type EventRow, type RecordRow } from './mot.repository';

// The contract's enums describe these values; the response schema re-checks them.
export const toRecord = (row: RecordRow): ServiceRecord => ({
  ...row,
  rule: row.rule as MotRule | null,
  channel: row.channel as ServiceRecord['channel'],
});
export const toEvent = ({ staffId: _staffId, ...row }: EventRow & { staffId?: number }, record: RecordRow | undefined): MotEvent => ({
  ...row,
  rule: row.rule as MotRule,
  status: row.status as MotEvent['status'],
  serviceRecord: record ? toRecord(record) : null,
});
export const toCustomer = ({ staffId: _staffId, ...row }: CustomerSummaryRow): MotCustomerSummary => ({
  ...row,
  phone: maskPhone(row.phone),
});
export async function ownEvent(db: Database, caller: Caller, eventId: number) {
  const [event] = await selectRows(
    db,
    selectQuery(
      ownedEventColumns,
      sql`from ${tableAs(e)} join ${tableAs(c)} on ${c.id} = ${e.customerId} where ${e.corpId} = ${caller.corp.id} and ${e.id} = ${eventId}`,
    ),
  );
  if (!event) throw ApiError.notFound(`eventId: no event ${eventId}`);
  if (event.staffId !== caller.staffId)
    throw ApiError.forbidden(`eventId: event ${eventId} belongs to a customer who is not assigned to you`);
  return event;
}

export async function staffSettingsOf(db: Database, caller: Caller) {
  const [row] = await selectRows(db, selectQuery(staffSettingsColumns, sql`from ${staff} where ${staff.id} = ${caller.staffId}`), {
    prepare: true,
  });
  if (!row) throw ApiError.notFound('no such staff member');
  return row;
}
