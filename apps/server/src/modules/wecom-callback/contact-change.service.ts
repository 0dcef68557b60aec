import { customerNoOfState, kycStaleReasonSchema, type KycStaleReason, type WecomCallbackEvent } from '@broker/contract';
import { hongKongDateTime } from '@broker/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { createContactChangeRepository, type ContactChange } from './contact-change.repository';

/** Stored with the event and logged; only `marked_stale`, `healed` and `bound` change data. */
export type ContactChangeOutcome =
  | 'duplicate'
  | 'ignored'
  | 'unknown_staff'
  | 'no_binding'
  | 'not_the_manager'
  | 'out_of_order'
  | 'already_stale'
  | 'marked_stale'
  | 'healed'
  | 'already_bound'
  | 'no_state'
  | 'state_unknown_customer'
  | 'state_not_own_customer'
  | 'customer_already_bound'
  | 'bound';

const staleReason = (changeType: string): KycStaleReason | null => {
  const parsed = kycStaleReasonSchema.safeParse(changeType);
  return parsed.success ? parsed.data : null;
};

/** Each event in one transaction that first records it: a retry or replay changes nothing (ADR 0019). */
export function createContactChangeService(deps: { db: Database; log: FastifyBaseLogger }) {
  async function apply(corpId: number, event: WecomCallbackEvent): Promise<ContactChangeOutcome> {
    const changeType = event.ChangeType ?? '';
    const wecomUserId = event.UserID ?? '';
    const externalUserId = event.ExternalUserID ?? '';
    if (event.Event !== 'change_external_contact' || !wecomUserId || !externalUserId) return 'ignored';
    if (changeType !== 'add_external_contact' && !staleReason(changeType)) return 'ignored';
    const change: ContactChange = {
      corpId,
      eventKey: `${changeType}:${wecomUserId}:${externalUserId}:${event.CreateTime}`,
      changeType,
      wecomUserId,
      externalUserId,
      occurredAt: new Date(event.CreateTime * 1000),
    };
    return deps.db.transaction(async (tx) => {
      const repository = createContactChangeRepository(tx);
      if (!(await repository.claim(change))) return 'duplicate';
      const outcome = await decide(repository, change, event);
      await repository.settle(change, outcome);
      return outcome;
    });
  }

  async function decide(
    repository: ReturnType<typeof createContactChangeRepository>,
    change: ContactChange,
    event: WecomCallbackEvent,
  ): Promise<ContactChangeOutcome> {
    const staffId = await repository.staffOf(change.corpId, change.wecomUserId);
    if (staffId === null) return 'unknown_staff';
    const binding = await repository.bindingOfContact(change.corpId, change.externalUserId);
    // A later event has been applied already: WeCom retried this one.
    const late = (at: Date | null) => at !== null && at.getTime() > change.occurredAt.getTime();

    const reason = staleReason(change.changeType);
    if (reason) {
      if (!binding) return 'no_binding';
      // Another follower parted with the contact: the customer's manager still has them.
      if (binding.managerId !== staffId) return 'not_the_manager';
      if (late(binding.contactChangedAt)) return 'out_of_order';
      if (binding.staleAt) {
        await repository.touch(binding.id, change.occurredAt);
        return 'already_stale';
      }
      await repository.markStale(change, binding, reason, {
        changeType: change.changeType,
        externalUserId: change.externalUserId,
        wecomUserId: change.wecomUserId,
        occurredAt: hongKongDateTime(change.occurredAt),
        source: event.Source ?? null,
      });
      return 'marked_stale';
    }

    // add_external_contact
    if (binding) {
      if (binding.managerId !== staffId || !binding.staleAt) return 'already_bound';
      if (late(binding.contactChangedAt)) return 'out_of_order';
      await repository.heal(change, binding);
      return 'healed';
    }
    const customerNo = customerNoOfState(event.State);
    if (!customerNo) return 'no_state';
    const customer = await repository.customerByNo(change.corpId, customerNo);
    if (!customer) return 'state_unknown_customer';
    if (customer.staffId !== staffId) return 'state_not_own_customer';
    if (customer.bound) return 'customer_already_bound';
    return (await repository.bind(change, customer.id, staffId, event.State ?? '')) === 'bound' ? 'bound' : 'customer_already_bound';
  }

  return {
    async handle(corp: { id: number; code: string }, event: WecomCallbackEvent): Promise<ContactChangeOutcome> {
      const outcome = await apply(corp.id, event);
      // One line per event: an admin can follow a contact's story in the log.
      deps.log.info(
        {
          corp: corp.code,
          event: event.Event ?? event.MsgType,
          changeType: event.ChangeType,
          wecomUserId: event.UserID,
          externalUserId: event.ExternalUserID,
          createTime: event.CreateTime,
          outcome,
        },
        `WeCom callback ${event.ChangeType ?? event.Event ?? event.MsgType}: ${outcome}`,
      );
      return outcome;
    },
  };
}
