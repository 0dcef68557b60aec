import { and, eq, sql } from 'drizzle-orm';
import type { KycStaleReason } from '@broker/contract';
import type { Tx } from '../../db/client';
import { auditLog, customers, kycBindings, staff, wecomCallbackEvents } from '../../db/schema';
import { tableAlias, tableAs } from '../../db/sql-rows';
import { hongKongDay } from '@broker/domain';
import { auditEntry } from '../audit';
import { insertMotEvents } from '../mot';

export interface ContactChange {
  corpId: number;
  eventKey: string;
  changeType: string;
  wecomUserId: string;
  externalUserId: string;
  occurredAt: Date;
}

/** Retries come within minutes and replays past five minutes are refused; a month also lets an operator look. */
export const CALLBACK_EVENT_RETENTION_DAYS = 30;
/** Per received event, so a callback never waits on a large delete. */
const PRUNE_BATCH = 200;

async function pruneOldEvents(tx: Tx) {
  await tx.execute(sql`
    delete from ${wecomCallbackEvents} where (${wecomCallbackEvents.corpId}, ${wecomCallbackEvents.eventKey}) in (
      select ${wecomCallbackEvents.corpId}, ${wecomCallbackEvents.eventKey} from ${wecomCallbackEvents}
      where ${wecomCallbackEvents.receivedAt} < now() - make_interval(days => ${CALLBACK_EVENT_RETENTION_DAYS})
      limit ${PRUNE_BATCH})`);
}

const c = tableAlias(customers, 'c');
const k = tableAlias(kycBindings, 'k');
/** WeCom told us: no one of ours did it. */
const bySystem = (change: ContactChange) => ({ corpId: change.corpId, staffId: null });

/** Inside the transaction that records the event. */
export function createContactChangeRepository(tx: Tx) {
  /** A reason, or null to clear, with its audit row. */
  async function setStaleness(change: ContactChange, binding: { id: number; customerId: number }, reason: KycStaleReason | null) {
    await tx
      .update(kycBindings)
      .set({ staleAt: reason ? change.occurredAt : null, staleReason: reason, contactChangedAt: change.occurredAt })
      .where(eq(kycBindings.id, binding.id));
    const after = { stale: reason, customerId: binding.customerId, via: 'wecom_callback', wecomUserId: change.wecomUserId };
    const action = reason ? 'kyc.stale' : 'kyc.fresh';
    await tx
      .insert(auditLog)
      .values(auditEntry(bySystem(change), action, 'kyc_binding', change.externalUserId, { stale: reason ? null : true }, after));
  }

  return {
    /** False when recorded before (a WeCom retry, or a replay). */
    async claim(change: ContactChange) {
      await pruneOldEvents(tx);
      const inserted = await tx
        .insert(wecomCallbackEvents)
        .values({ ...change, outcome: 'pending' })
        .onConflictDoNothing()
        .returning({ eventKey: wecomCallbackEvents.eventKey });
      return inserted.length === 1;
    },

    async settle(change: ContactChange, outcome: string) {
      await tx
        .update(wecomCallbackEvents)
        .set({ outcome })
        .where(and(eq(wecomCallbackEvents.corpId, change.corpId), eq(wecomCallbackEvents.eventKey, change.eventKey)));
    },

    async staffOf(corpId: number, wecomUserId: string) {
      const [row] = await tx
        .select({ id: staff.id })
        .from(staff)
        .where(and(eq(staff.corpId, corpId), eq(staff.wecomUserId, wecomUserId)))
        .limit(1);
      return row?.id ?? null;
    },

    /** With its customer's manager, locked for this event. */
    async bindingOfContact(corpId: number, externalUserId: string) {
      const [row] = await tx
        .select({
          id: kycBindings.id,
          customerId: kycBindings.customerId,
          staleAt: kycBindings.staleAt,
          contactChangedAt: kycBindings.contactChangedAt,
          managerId: customers.staffId,
          customerNo: customers.customerNo,
        })
        .from(kycBindings)
        .innerJoin(customers, eq(customers.id, kycBindings.customerId))
        .where(and(eq(kycBindings.corpId, corpId), eq(kycBindings.externalUserId, externalUserId)))
        .for('update', { of: kycBindings })
        .limit(1);
      return row;
    },

    async customerByNo(corpId: number, customerNo: string) {
      const [row] = await tx
        .select({
          id: customers.id,
          staffId: customers.staffId,
          bound: sql<boolean>`exists (select 1 from ${tableAs(k)} where ${k.corpId} = ${customers.corpId} and ${k.customerId} = ${customers.id})`,
        })
        .from(customers)
        .where(and(eq(customers.corpId, corpId), eq(customers.customerNo, customerNo)))
        .limit(1);
      return row;
    },

    /** With the audit row and the manager's MOT event (once per fact). */
    async markStale(
      change: ContactChange,
      binding: { id: number; customerId: number },
      reason: KycStaleReason,
      facts: Record<string, string | null>,
    ) {
      await setStaleness(change, binding, reason);
      // The customer's current manager and name, as every MOT writer takes them.
      await tx.execute(
        insertMotEvents(sql`
          select ${c.nameEn}, ${c.corpId}, 'contact_removed', ${c.id}, ${c.staffId}, ${change.eventKey}, ${hongKongDay(change.occurredAt)}::date,
                 ${JSON.stringify(facts)}::jsonb
            from ${tableAs(c)}
           where ${c.id} = ${binding.customerId}`),
      );
    },

    /** An event that changes nothing else. */
    async touch(bindingId: number, occurredAt: Date) {
      await tx.update(kycBindings).set({ contactChangedAt: occurredAt }).where(eq(kycBindings.id, bindingId));
    },

    async heal(change: ContactChange, binding: { id: number; customerId: number }) {
      await setStaleness(change, binding, null);
    },

    /** The 「联系我」 binding, in a savepoint: a race lost to a manual bind leaves the event's transaction usable. */
    async bind(change: ContactChange, customerId: number, staffId: number, state: string): Promise<'bound' | 'raced'> {
      try {
        await tx.transaction(async (inner) => {
          await inner.insert(kycBindings).values({
            corpId: change.corpId,
            customerId,
            externalUserId: change.externalUserId,
            boundByStaffId: staffId,
            contactChangedAt: change.occurredAt,
          });
          const after = { externalUserId: change.externalUserId, customerId, via: 'contact_me', state, wecomUserId: change.wecomUserId };
          await inner.insert(auditLog).values(auditEntry(bySystem(change), 'kyc.bind', 'kyc_binding', change.externalUserId, null, after));
        });
        return 'bound';
      } catch (error) {
        // The driver's error, kept as the cause, names the constraint.
        const { message, cause } = error as Error;
        const text = `${message} ${cause instanceof Error ? cause.message : ''}`;
        if (text.includes('kyc_binding_contact_uq') || text.includes('kyc_binding_customer_uq')) return 'raced';
        throw error;
      }
    },
  };
}
