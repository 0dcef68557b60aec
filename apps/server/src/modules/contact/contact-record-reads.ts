import type { ContactChannel } from '@broker/contract';
import { hongKongDay } from '@broker/domain';
import type { Database } from '../../db/client';
import { auditLog } from '../../db/schema';
import { ApiError } from '../../http/api-error';
import { scopeOf, type Caller } from '../../http/caller';
import { auditEntry } from '../audit';
import { contactLogCsv } from './contact-csv';
import { allVersions, recordPage, threadOf } from './contact.repository';
import { ownCustomer, ownThread, toContactRecord } from './contact.service';

export async function getContactRecord(db: Database, caller: Caller, recordId: number) {
  const owner = await ownThread(db, caller, recordId);
  const versions = (await threadOf(db, owner.threadId)).map(toContactRecord);
  const latest = versions.find((version) => version.latest) ?? versions[0]!;
  return { record: latest, versions: versions.filter((version) => version !== latest) };
}

/** Newest contact first; `cursor`: the previous page's nextCursor. */
export async function listContactRecords(
  db: Database,
  caller: Caller,
  input: { customerId: number; channel?: ContactChannel | undefined; cursor?: string | undefined; limit: number },
) {
  await ownCustomer(db, caller, input.customerId);
  let after: number | undefined;
  if (input.cursor !== undefined) {
    if (!/^[1-9]\d{0,15}$/.test(input.cursor) || !Number.isSafeInteger(Number(input.cursor)))
      throw ApiError.validation('cursor', 'must be the nextCursor of the previous page');
    after = Number(input.cursor);
  }
  const rows = await recordPage(db, { customerId: input.customerId, channel: input.channel, after, limit: input.limit });
  const page = rows.slice(0, input.limit);
  return { list: page.map(toContactRecord), nextCursor: rows.length > input.limit ? String(page.at(-1)!.recordId) : null };
}

/** Audited. */
export async function exportContactRecords(
  db: Database,
  caller: Caller,
  input: { customerId: number; dateFrom?: string | undefined; dateTo?: string | undefined },
) {
  const customer = await ownCustomer(db, caller, input.customerId);
  const rows = await allVersions(db, input);
  await db.insert(auditLog).values(
    auditEntry(scopeOf(caller), 'contact.export', 'contact_record', `customer:${input.customerId}`, null, {
      customerId: input.customerId,
      dateFrom: input.dateFrom ?? null,
      dateTo: input.dateTo ?? null,
      records: rows.length,
    }),
  );
  return {
    fileName: `contact-log-${customer.customerNo.replace(/[^0-9A-Za-z_-]/g, '_')}-${hongKongDay()}.csv`,
    csv: contactLogCsv(rows),
    records: rows.length,
  };
}
