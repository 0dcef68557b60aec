import type { z } from 'zod';
import type { ContactChannel, ContactPurpose, ContactRecord, addContactRecord } from '@broker/contract';
import { hongKongDay } from '@broker/domain';
import type { Database } from '../../db/client';
import { ApiError } from '../../http/api-error';
import type { Caller } from '../../http/caller';
import { contactCustomer, versionOwner, type CustomerRow, type RecordContent, type RecordRow } from './contact.repository';

/** A minute of clock skew between phone and server is fine; a contact in the future is not. */
const CLOCK_SKEW_MS = 60_000;

/** The record's own fields of an add or a revise request. */
type RecordFieldsInput = Omit<z.output<typeof addContactRecord.request>, 'customerId' | 'eventIds' | 'requestId'>;

// The contract's enums describe these values; the response schema re-checks them.
export const toContactRecord = ({ customerNo: _customerNo, supersededAt: _supersededAt, ...row }: RecordRow): ContactRecord => ({
  ...row,
  channel: row.channel as ContactChannel,
  purpose: row.purpose as ContactPurpose,
});

export const blankToNull = (text: string | null | undefined) => (text ? text : null);

export async function ownCustomer(db: Database, caller: Caller, customerId: number): Promise<CustomerRow> {
  const customer = await contactCustomer(db, caller.corp.id, customerId);
  if (!customer) throw ApiError.notFound(`customerId: no customer ${customerId}`);
  if (customer.staffId !== caller.staffId) throw ApiError.forbidden(`customerId: customer ${customerId} is not assigned to you`);
  return customer;
}

/** When its client is the caller's. */
export async function ownThread(db: Database, caller: Caller, recordId: number) {
  const owner = await versionOwner(db, caller.corp.id, recordId);
  if (!owner) throw ApiError.notFound(`recordId: no contact record ${recordId}`);
  if (owner.managerId !== caller.staffId)
    throw ApiError.forbidden(`recordId: record ${recordId} is about a customer who is not assigned to you`);
  return owner;
}

/** Beyond their own shapes (the contract checks those). */
export function content(customer: CustomerRow, fields: RecordFieldsInput, servedAt: number): RecordContent {
  if (servedAt > Date.now() + CLOCK_SKEW_MS) throw ApiError.validation('servedAt', 'must not be in the future');
  const servedDay = hongKongDay(servedAt);
  if (servedDay < customer.openDate)
    throw ApiError.validation('servedAt', `must not be before the client's account opened (${customer.openDate})`);
  const nextStepDate = fields.nextStepDate ?? null;
  if (nextStepDate !== null && nextStepDate < servedDay)
    throw ApiError.validation('nextStepDate', `must not be before the day of the contact (${servedDay})`);
  return {
    channel: fields.channel,
    purpose: fields.purpose,
    note: fields.note,
    outcome: blankToNull(fields.outcome),
    nextStep: blankToNull(fields.nextStep),
    nextStepDate,
    suitability: blankToNull(fields.suitability),
    servedAt,
  };
}
