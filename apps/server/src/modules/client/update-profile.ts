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
import { scopeFor } from './client-reads';

type ProfileUpdate = z.output<typeof updateProfileEndpoint.request>;

/** The columns to set, and the audit's before and after of only those. */
function profileDiff(input: ProfileUpdate, current: CustomerRow) {
  const changes: ProfileChanges = {};
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  const note = (field: keyof ProfileChanges, was: unknown, now: unknown) => {
    before[field] = was;
    after[field] = now;
  };
  if (input.nameEn !== undefined && input.nameEn !== current.nameEn) {
    changes.nameEn = input.nameEn;
    note('nameEn', current.nameEn, input.nameEn);
  }
  if (input.phone !== undefined) {
    const next = input.phone === null ? null : normalisePhone(input.phone);
    if ((next?.phone ?? null) !== current.phone) {
      changes.phone = next?.phone ?? null;
      changes.phoneDigits = next?.digits ?? null;
      note('phone', current.phone, changes.phone);
    }
  }
  if (input.email !== undefined) {
    const email = input.email === null ? null : input.email.toLowerCase();
    if (email !== current.email) {
      changes.email = email;
      note('email', current.email, email);
    }
  }
  if (input.tags !== undefined && JSON.stringify(input.tags) !== JSON.stringify(current.tags)) {
    changes.tags = input.tags;
    note('tags', current.tags, input.tags);
  }
  if (input.remark !== undefined) {
    const remark = input.remark === null || input.remark === '' ? null : input.remark;
    if (remark !== current.remark) {
      changes.remark = remark;
      note('remark', current.remark, remark);
    }
  }
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
  if (result.outcome === 'missing') throw ApiError.notFound(`customerId: there is no client ${input.customerId}`);
  if (result.outcome === 'stale') {
    throw ApiError.conflict(
      `version: someone else changed this client after you opened it (you edited version ${input.version}, it is now version ${result.currentVersion}). ` +
        'Nothing was saved and their change is kept: reload the client and apply your edit again.',
    );
  }
  return toBaseInfo(result.customer);
}
