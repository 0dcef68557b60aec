import type { z } from 'zod';
import type { CustomerBaseInfo, updateProfile as updateProfileEndpoint } from '@broker/contract';
import { normalisePhone } from '@broker/domain';
import type { Database } from '../../db/client';
import { auditLog } from '../../db/schema';
import { selectRows } from '../../db/sql-rows';
import { ApiError } from '../../http/api-error';
import type { Caller } from '../../http/caller';
import { auditEntry } from '../audit';
import { clientQueries, profileUpdate, type CustomerRow, type ProfileChanges } from './client.repository';
import { toBaseInfo } from './client-profile';
import { noClient, scopeFor } from './client-reads';

type ProfileUpdate = z.output<typeof updateProfileEndpoint.request>;

/** The columns to set, and the audit's before and after of only those. */
function profileDiff(input: ProfileUpdate, current: CustomerRow) {
  // Left out: undefined; cleared: null (the contract's schema refuses an empty phone or email).
  const phone = input.phone && normalisePhone(input.phone);
  const wanted = {
    nameEn: input.nameEn,
    phone: phone && phone.phone,
    email: input.email && input.email.toLowerCase(),
    tags: input.tags,
    remark: input.remark === '' ? null : input.remark,
  };
  const changes: ProfileChanges = {};
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const field of Object.keys(wanted) as Array<keyof typeof wanted>) {
    const now = wanted[field];
    if (now === undefined || JSON.stringify(now) === JSON.stringify(current[field])) continue;
    Object.assign(changes, { [field]: now });
    before[field] = current[field];
    after[field] = now;
  }
  if ('phone' in changes) changes.phoneDigits = phone ? phone.digits : null;
  return { changes, before, after };
}

/** Only while `version` is current, with one audit row of what changed; a stale version changes nothing. */
export async function updateProfile(db: Database, caller: Caller, input: ProfileUpdate): Promise<CustomerBaseInfo> {
  const scope = await scopeFor(db, caller, input.customerId);
  const { customerId, version } = input;
  const result = await db.transaction(async (tx) => {
    const [current] = await selectRows(tx, clientQueries.customerForUpdate(scope, customerId));
    if (!current) return { outcome: 'missing' as const };
    if (current.version !== version) return { outcome: 'stale' as const, currentVersion: current.version };
    const { changes, before, after } = profileDiff(input, current);
    if (Object.keys(changes).length === 0) return { outcome: 'unchanged' as const, customer: current };
    await tx.execute(profileUpdate(scope, customerId, version, changes));
    await tx.insert(auditLog).values(auditEntry(scope, 'customer.update', 'customer', String(customerId), before, after));
    const [saved] = await selectRows(tx, clientQueries.customer(scope, customerId));
    return { outcome: 'saved' as const, customer: saved! };
  });
  if (result.outcome === 'missing') throw noClient(input.customerId);
  if (result.outcome === 'stale') {
    throw ApiError.conflict(
      `version: someone else changed this client after you opened it (you edited version ${input.version}, it is now version ${result.currentVersion}). ` +
        'Nothing was saved and their change is kept: reload the client and apply your edit again.',
    );
  }
  return toBaseInfo(result.customer);
}
