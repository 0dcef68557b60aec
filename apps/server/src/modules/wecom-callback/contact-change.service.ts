import { customerNoOfState, type KycStaleReason, type WecomCallbackEvent } from '@broker/contract';
import { hongKongDateTime } from '@broker/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { createContactChangeRepository, type ContactChange } from './contact-change.repository';

/**
 * What an event did, one word per case; stored with the event and logged. Everything but
 * `marked_stale`, `healed` and `bound` leaves the data as it was.
 */
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

const STALE_REASONS: Record<string, KycStaleReason> = {
  del_follow_user: 'del_follow_user',
  del_external_contact: 'del_external_contact',
};

/**
 * Applies WeCom's change_external_contact events to KYC bindings (ADR 0019). Each event runs in one
 * transaction that first records it: a retry or replay of an event already recorded changes nothing.
 */
export function createContactChangeService(deps: { db: Database; log: FastifyBaseLogger }) {
  async function apply(corpId: number, event: WecomCallbackEvent): Promise<ContactChangeOutcome> {
    const changeType = event.ChangeType ?? '';
    const wecomUserId = event.UserID ?? '';
    const externalUserId = event.ExternalUserID ?? '';
    if (event.Event !== 'change_external_contact' || !wecomUserId || !externalUserId) return 'ignored';
    if (changeType !== 'add_external_contact' && !(changeType in STALE_REASONS)) return 'ignored';
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
    // A later event has been applied already: this one arrived late (WeCom retried it).
    const late = (at: Date | null) => at !== null && at.getTime() > change.occurredAt.getTime();

    const reason = STALE_REASONS[change.changeType];
    if (reason) {
      if (!binding) return 'no_binding';
      // Another follower of the contact parted with them: the customer's manager still has them.
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
      // One line per event, whatever it did: an admin can follow a contact's story in the log.
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

export type ContactChangeService = ReturnType<typeof createContactChangeService>;
