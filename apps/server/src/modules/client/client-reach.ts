import type { CustomerReach, PhoneRevealPurpose } from '@broker/contract';
import { maskPhone, normalisePhone } from '@broker/domain';
import type { Database } from '../../db/client';
import { auditLog } from '../../db/schema';
import { selectRows } from '../../db/sql-rows';
import { ApiError } from '../../http/api-error';
import type { Caller } from '../../http/caller';
import { clientQueries } from './client.repository';
import { readOwn, scopeFor } from './client-reads';

/** Reaching a client (ADR 0039): the names, the masked phone and the bound WeCom contact; the full number on request. */

export async function getReach(db: Database, caller: Caller, customerId: number): Promise<CustomerReach> {
  const {
    reach: [row],
  } = await readOwn(db, caller, customerId, (scope) => ({ reach: clientQueries.reach(scope, customerId) }));
  if (!row) throw ApiError.notFound(`customerId: there is no client ${customerId}`);
  return {
    customerId: row.id,
    nameCn: row.nameCn,
    nameEn: row.nameEn,
    phoneMasked: maskPhone(row.phone),
    wecom: row.externalUserId === null ? null : { externalUserId: row.externalUserId, stale: row.wecomStale },
  };
}

/**
 * The client's full phone number, and one audit row saying who asked for it, when, and to do what
 * (view: `customer.revealPhone`, call: `customer.callPhone`), in one transaction: no number leaves
 * without its audit row (ADR 0039). A client without a phone yields null and no row: nothing was shown.
 */
export async function revealPhone(db: Database, caller: Caller, customerId: number, purpose: PhoneRevealPurpose) {
  const scope = await scopeFor(db, caller, customerId);
  const phone = await db.transaction(async (tx) => {
    const [row] = await selectRows(tx, clientQueries.phone(scope, customerId));
    if (!row) throw ApiError.notFound(`customerId: there is no client ${customerId}`);
    if (row.phone === null) return null;
    await tx.insert(auditLog).values({
      corpId: scope.corpId,
      actorStaffId: scope.staffId,
      action: purpose === 'call' ? 'customer.callPhone' : 'customer.revealPhone',
      entity: 'customer',
      entityId: String(customerId),
      before: null,
      // The number as it was shown: the trail reads it masked (audit.routes.ts), like every phone.
      after: { phone: row.phone },
    });
    return row.phone;
  });
  return { customerId, phone, dial: phone === null ? null : `+${normalisePhone(phone).digits}` };
}
