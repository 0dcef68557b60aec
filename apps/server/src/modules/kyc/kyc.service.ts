import { ErrorCode, kycStaleReasonSchema, paged, type KycBinding, type KycCandidate } from '@broker/contract';
import { clientName, maskPhone } from '@broker/domain';
import { ApiError } from '../../http/api-error';
import { scopeOf, type Caller } from '../../http/caller';
import type { WecomClient } from '../../wecom/wecom-client';
import { WecomApiError, wecomFailure } from '../../wecom/wecom-errors';
import { interpretKeyword } from '../customer-search';
import type { KycRepository } from './kyc.repository';

const UNKNOWN_CONTACT_ERRCODES = new Set([84061, 40096, 61109]);

/** Enough to recognise them, phone masked. */
const bindingOf = (
  externalUserId: string,
  customer: { nameCn: string; nameEn: string; customerNo: string; phone: string | null },
  binding: { customerId: number; boundAt: Date; staleAt?: Date | null; staleReason?: string | null },
): KycBinding => ({
  externalUserId,
  customerId: binding.customerId,
  customerName: clientName(customer),
  customerNameEn: customer.nameEn,
  customerNo: customer.customerNo,
  phone: maskPhone(customer.phone),
  boundAt: binding.boundAt.getTime(),
  stale:
    binding.staleAt && binding.staleReason
      ? { reason: kycStaleReasonSchema.parse(binding.staleReason), at: binding.staleAt.getTime() }
      : null,
});

export function createKycService(deps: { repository: KycRepository; wecom: WecomClient }) {
  const { repository } = deps;

  /**
   * The page's "I am chatting with X" is checked with WeCom before anything about X's bindings: unknown and
   * not followed get the same answer (ADR 0015), so bind and unbind reveal no more than hasKyc.
   */
  async function assertCallerFollows(caller: Caller, externalUserId: string) {
    if (!(await followedContact(caller, externalUserId))) throw notYourContact();
  }

  const notYourContact = () => new ApiError(ErrorCode.KYC_NOT_FOLLOWING, 'externalUserId: not one of your WeCom contacts');

  /** Null when WeCom does not know it or the caller does not follow it (not told apart, ADR 0015); refusals named. */
  async function followedContact(caller: Caller, externalUserId: string) {
    let contact;
    try {
      contact = await deps.wecom.getExternalContact(caller.corp, 'khzl', externalUserId);
    } catch (error) {
      if (error instanceof WecomApiError && UNKNOWN_CONTACT_ERRCODES.has(error.errcode)) return null;
      throw wecomFailure(error);
    }
    if (!contact.followUserIds.includes(caller.wecomUserId)) return null;
    return { externalUserId, name: contact.name, followedByYou: true };
  }

  async function ownCustomer(caller: Caller, customerId: number) {
    const customer = await repository.findCustomer(caller.corp.id, customerId);
    if (!customer) throw ApiError.notFound(`customerId: no customer ${customerId}`);
    if (customer.staffId !== caller.staffId) throw ApiError.forbidden(`customerId: customer ${customerId} is not assigned to you`);
    return customer;
  }

  return {
    async search(caller: Caller, input: { keyword: string; pageNum: number; pageSize: number }) {
      // KYC never lists a whole book (the contract refuses an empty keyword too).
      const keyword = interpretKeyword(input.keyword);
      if (!keyword) throw ApiError.validation('body.keyword', 'must not be empty');
      const { rows, total } = await repository.searchOwnCustomers(scopeOf(caller), keyword, input);
      const list: KycCandidate[] = rows.map((row) => ({ ...row, phone: maskPhone(row.phone) }));
      return paged(list, total, input);
    },

    async bind(caller: Caller, input: { externalUserId: string; customerId: number }): Promise<KycBinding> {
      const customer = await ownCustomer(caller, input.customerId);
      await assertCallerFollows(caller, input.externalUserId);
      const existing = await repository.bindingOfContact(caller.corp.id, input.externalUserId);
      if (existing) {
        const same = existing.binding.customerId === input.customerId;
        throw new ApiError(
          ErrorCode.KYC_CONTACT_ALREADY_BOUND,
          same
            ? `externalUserId: this contact is already bound to ${clientName(customer)}`
            : 'externalUserId: this contact is already bound to another customer; unbind it first',
        );
      }
      if (await repository.bindingOfCustomer(caller.corp.id, input.customerId)) {
        throw new ApiError(
          ErrorCode.KYC_CUSTOMER_ALREADY_BOUND,
          `customerId: ${clientName(customer)} is already bound to another WeCom contact; unbind it first`,
        );
      }
      const result = await repository.bind({ ...scopeOf(caller), customerId: input.customerId, externalUserId: input.externalUserId });
      // A concurrent bind can win between our checks and the insert: the unique indexes decide.
      if (result === 'contact')
        throw new ApiError(
          ErrorCode.KYC_CONTACT_ALREADY_BOUND,
          'externalUserId: this contact was just bound by someone else; unbind it first',
        );
      if (result === 'customer')
        throw new ApiError(ErrorCode.KYC_CUSTOMER_ALREADY_BOUND, `customerId: ${clientName(customer)} was just bound to another contact`);
      return bindingOf(result.externalUserId, customer, result);
    },

    async unbind(caller: Caller, externalUserId: string): Promise<KycBinding> {
      const existing = await repository.bindingOfContact(caller.corp.id, externalUserId);
      // The owner may always end a binding, even a stale one; anyone else only if they follow the contact.
      if (!existing || existing.staffId !== caller.staffId) await assertCallerFollows(caller, externalUserId);
      if (!existing) throw new ApiError(ErrorCode.KYC_NOT_BOUND, `externalUserId: ${externalUserId} is not bound to any customer`);
      if (existing.staffId !== caller.staffId)
        throw ApiError.forbidden('externalUserId: this contact is bound to a customer who is not assigned to you');
      const removed = await repository.unbind({
        ...scopeOf(caller),
        bindingId: existing.binding.id,
        externalUserId,
        customerId: existing.binding.customerId,
      });
      if (!removed) throw new ApiError(ErrorCode.KYC_NOT_BOUND, `externalUserId: ${externalUserId} was just unbound by someone else`);
      return bindingOf(externalUserId, existing, existing.binding);
    },

    /**
     * About a contact the caller does not follow, one answer, as for one that exists nowhere (ADR 0015); a contact
     * bound to the caller's own customer is theirs to see (a stale binding shows why it is no longer followed).
     */
    async hasKyc(caller: Caller, externalUserId: string) {
      const [existing, contact] = await Promise.all([
        repository.bindingOfContact(caller.corp.id, externalUserId),
        followedContact(caller, externalUserId),
      ]);
      if (existing && existing.staffId === caller.staffId) {
        return { bound: true, ownCustomer: true, binding: bindingOf(externalUserId, existing, existing.binding), contact };
      }
      if (!contact) throw notYourContact();
      return { bound: Boolean(existing), ownCustomer: false, binding: null, contact };
    },
  };
}
