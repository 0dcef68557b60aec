import type { CustomerReach, PhoneRevealPurpose } from '@broker/contract';
import { maskPhone, normalisePhone } from '@broker/domain';
import type { Database } from '../../db/client';
import { auditLog } from '../../db/schema';
import { selectRows } from '../../db/sql-rows';
import type { Caller } from '../../http/caller';
import { auditEntry } from '../audit';
import { clientQueries } from './client.repository';
import { noClient, readOwn, scopeFor } from './client-reads';

/** Reaching a client (ADR 0039); the full number only on request. */

export async function getReach(db: Database, caller: Caller, customerId: number): Promise<CustomerReach> {
  const {
    reach: [row],
  } = await readOwn(db, caller, customerId, (scope) => ({ reach: clientQueries.reach(scope, customerId) }));
  if (!row) throw noClient(customerId);
  return {
    customerId: row.id,
    nameCn: row.nameCn,
    nameEn: row.nameEn,
    phoneMasked: maskPhone(row.phone),
    wecom: row.externalUserId === null ? null : { externalUserId: row.externalUserId, stale: row.wecomStale },
  };
}

/**
 * The full phone number with one audit row of who asked, when and why, in one transaction: no number leaves
 * without its row (ADR 0039). No phone: null and no row.
 */
export async function revealPhone(db: Database, caller: Caller, customerId: number, purpose: PhoneRevealPurpose) {
  const scope = await scopeFor(db, caller, customerId);
  const phone = await db.transaction(async (tx) => {
    const [row] = await selectRows(tx, clientQueries.phone(scope, customerId));
    if (!row) throw noClient(customerId);
    if (row.phone === null) return null;
    const action = purpose === 'call' ? 'customer.callPhone' : 'customer.revealPhone';
    // As it was shown: the trail reads it masked, like every phone.
    await tx.insert(auditLog).values(auditEntry(scope, action, 'customer', String(customerId), null, { phone: row.phone }));
    return row.phone;
  });
  return { customerId, phone, dial: phone === null ? null : `+${normalisePhone(phone).digits}` };
}
