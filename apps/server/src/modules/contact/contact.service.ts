import type { ContactChannel, ContactPurpose, ContactRecord } from '@broker/contract';
import { hongKongDay } from '@broker/domain';
import { ApiError } from '../../http/api-error';
import { scopeOf, type Caller } from '../../http/caller';
import { contactLogCsv } from './contact-csv';
import type { ContactRepository, CustomerRow, RecordContent, RecordRow, WriteRefusal } from './contact.repository';

/** A minute of clock skew between phone and server is fine; a contact in the future is not. */
const CLOCK_SKEW_MS = 60_000;

/** The fields a manager writes, as the contract's requests carry them. */
export interface RecordFieldsInput {
  channel: ContactChannel;
  purpose: ContactPurpose;
  note: string;
  outcome?: string | null | undefined;
  nextStep?: string | null | undefined;
  nextStepDate?: string | null | undefined;
  suitability?: string | null | undefined;
  servedAt?: number | undefined;
}

export interface AddInput extends RecordFieldsInput {
  customerId: number;
  eventIds?: number[] | undefined;
  requestId?: string | undefined;
}

// Rows come from SQL whose values the contract's enums describe; the response schema re-checks them on the way out.
export const toContactRecord = ({ customerNo: _customerNo, supersededAt: _supersededAt, ...row }: RecordRow): ContactRecord => ({
  ...row,
  channel: row.channel as ContactChannel,
  purpose: row.purpose as ContactPurpose,
});

const blankToNull = (text: string | null | undefined) => (text ? text : null);

function refusal(result: WriteRefusal): ApiError {
  switch (result.refused) {
    case 'eventMissing':
      return ApiError.notFound(`eventIds: no event ${result.eventIds.join(', ')}`);
    case 'eventOfAnotherClient':
      return ApiError.validation('eventIds', `event ${result.eventIds.join(', ')} is not about this client`);
    case 'eventHandled':
      return ApiError.conflict(`eventIds: event ${result.eventIds.join(', ')} has already been handled`);
    case 'requestIdReused':
      return ApiError.conflict('requestId: already used for a record about another client; send a new one');
    case 'changedMeanwhile':
      return ApiError.conflict(
        result.latestRecordId === null
          ? 'recordId: the record changed meanwhile; reload it and make the change again'
          : `recordId: the record changed meanwhile (it now stands as record ${result.latestRecordId}); reload it and make the change again`,
      );
    case 'reasonRequired':
      return ApiError.validation('correctionReason', 'is required to correct a locked record, or one written by someone else');
  }
}

export function createContactService(deps: { repository: ContactRepository }) {
  const { repository } = deps;

  async function ownCustomer(caller: Caller, customerId: number): Promise<CustomerRow> {
    const customer = await repository.customer(caller.corp.id, customerId);
    if (!customer) throw ApiError.notFound(`customerId: no customer ${customerId}`);
    if (customer.staffId !== caller.staffId) throw ApiError.forbidden(`customerId: customer ${customerId} is not assigned to you`);
    return customer;
  }

  /** The thread a record id belongs to, when its client is the caller's. */
  async function ownThread(caller: Caller, recordId: number) {
    const owner = await repository.versionOwner(caller.corp.id, recordId);
    if (!owner) throw ApiError.notFound(`recordId: no contact record ${recordId}`);
    if (owner.managerId !== caller.staffId)
      throw ApiError.forbidden(`recordId: record ${recordId} is about a customer who is not assigned to you`);
    return owner;
  }

  /** The rules a record's fields obey beyond their own shapes (the contract checks those), with the client at hand. */
  function content(customer: CustomerRow, fields: RecordFieldsInput, servedAt: number): RecordContent {
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

  return {
    async add(caller: Caller, input: AddInput): Promise<ContactRecord> {
      const customer = await ownCustomer(caller, input.customerId);
      const result = await repository.add(scopeOf(caller), {
        ...content(customer, input, input.servedAt ?? Date.now()),
        customerId: input.customerId,
        eventIds: input.eventIds ?? [],
        requestId: input.requestId ?? null,
      });
      if ('refused' in result) throw refusal(result);
      return toContactRecord(result.record);
    },

    async revise(
      caller: Caller,
      input: RecordFieldsInput & { recordId: number; edits: number; correctionReason?: string | null | undefined },
    ): Promise<ContactRecord> {
      const owner = await ownThread(caller, input.recordId);
      const customer = await ownCustomer(caller, owner.customerId);
      const [current] = (await repository.thread(owner.threadId)).filter((version) => version.recordId === input.recordId);
      const result = await repository.revise(scopeOf(caller), {
        recordId: input.recordId,
        edits: input.edits,
        // Left out, the time of the contact stays as it was.
        content: content(customer, input, input.servedAt ?? current!.servedAt),
        correctionReason: blankToNull(input.correctionReason),
      });
      if ('refused' in result) throw refusal(result);
      return toContactRecord(result.record);
    },

    async get(caller: Caller, recordId: number) {
      const owner = await ownThread(caller, recordId);
      const versions = (await repository.thread(owner.threadId)).map(toContactRecord);
      const latest = versions.find((version) => version.latest) ?? versions[0]!;
      return { record: latest, versions: versions.filter((version) => version !== latest) };
    },

    async list(
      caller: Caller,
      input: { customerId: number; channel?: ContactChannel | undefined; cursor?: string | undefined; limit: number },
    ) {
      await ownCustomer(caller, input.customerId);
      let after: number | undefined;
      if (input.cursor !== undefined) {
        if (!/^[1-9]\d{0,15}$/.test(input.cursor) || !Number.isSafeInteger(Number(input.cursor)))
          throw ApiError.validation('cursor', 'must be the nextCursor of the previous page');
        after = Number(input.cursor);
      }
      const rows = await repository.page({ customerId: input.customerId, channel: input.channel, after, limit: input.limit });
      const page = rows.slice(0, input.limit);
      return { list: page.map(toContactRecord), nextCursor: rows.length > input.limit ? String(page.at(-1)!.recordId) : null };
    },

    async export(caller: Caller, input: { customerId: number; dateFrom?: string | undefined; dateTo?: string | undefined }) {
      const customer = await ownCustomer(caller, input.customerId);
      const rows = await repository.allVersions(input);
      await repository.auditExport(scopeOf(caller), {
        customerId: input.customerId,
        dateFrom: input.dateFrom ?? null,
        dateTo: input.dateTo ?? null,
        records: rows.length,
      });
      return {
        fileName: `contact-log-${customer.customerNo.replace(/[^0-9A-Za-z_-]/g, '_')}-${hongKongDay()}.csv`,
        csv: contactLogCsv(rows),
        records: rows.length,
      };
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;
