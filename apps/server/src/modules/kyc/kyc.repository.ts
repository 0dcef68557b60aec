import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { StaffScope } from '../../http/caller';
import { auditLog, customers, kycBindings } from '../../db/schema';
import { auditEntry } from '../audit';
import { createCustomerSearch, searchAliases, type BookIndexStore, type CustomerKeyword } from '../customer-search';

const { c, a, k, accountA, kycBindingK } = searchAliases;

/** Enough to recognise them; the service masks the phone. */
const candidateColumns = {
  customerId: sql<number>`${c.id}::float8`,
  customerNo: c.customerNo,
  nameCn: c.nameCn,
  nameEn: c.nameEn,
  phone: c.phone,
  idDoc: c.idDocMasked,
  status: c.status,
  boundExternalUserId: sql<
    string | null
  >`(select ${k.externalUserId} from ${kycBindingK} where ${k.customerId} = ${c.id} and ${k.corpId} = ${c.corpId})`,
  accountNos: sql<string[]>`array(select ${a.accountNo} from ${accountA} where ${a.customerId} = ${c.id} order by ${a.accountNo})`,
};

/** `indexes`: the books held in memory (ADR 0035); without them SQL answers. */
export function createKycRepository(db: Database, indexes?: BookIndexStore) {
  const customerSearch = createCustomerSearch(db, candidateColumns, indexes);
  return {
    /** As the client list finds them (ADR 0026), biggest clients first. */
    async searchOwnCustomers(scope: StaffScope, keyword: CustomerKeyword, page: { pageNum: number; pageSize: number }) {
      return customerSearch.search({ ...scope, keyword }, { ...page, sortBy: 'totalAssets', sortOrder: 'desc' });
    },

    async findCustomer(corpId: number, customerId: number) {
      const [row] = await db
        .select({
          id: customers.id,
          staffId: customers.staffId,
          nameCn: customers.nameCn,
          nameEn: customers.nameEn,
          customerNo: customers.customerNo,
          phone: customers.phone,
        })
        .from(customers)
        .where(and(eq(customers.corpId, corpId), eq(customers.id, customerId)))
        .limit(1);
      return row;
    },

    async bindingOfContact(corpId: number, externalUserId: string) {
      const [row] = await db
        .select({
          binding: kycBindings,
          staffId: customers.staffId,
          nameCn: customers.nameCn,
          nameEn: customers.nameEn,
          customerNo: customers.customerNo,
          phone: customers.phone,
        })
        .from(kycBindings)
        .innerJoin(customers, eq(customers.id, kycBindings.customerId))
        .where(and(eq(kycBindings.corpId, corpId), eq(kycBindings.externalUserId, externalUserId)))
        .limit(1);
      return row;
    },

    async bindingOfCustomer(corpId: number, customerId: number) {
      const [row] = await db
        .select()
        .from(kycBindings)
        .where(and(eq(kycBindings.corpId, corpId), eq(kycBindings.customerId, customerId)))
        .limit(1);
      return row;
    },

    /** With its audit row; a unique violation surfaces as `'contact' | 'customer'`. */
    async bind(input: { corpId: number; staffId: number; customerId: number; externalUserId: string }) {
      try {
        return await db.transaction(async (tx) => {
          const [row] = await tx
            .insert(kycBindings)
            .values({
              corpId: input.corpId,
              customerId: input.customerId,
              externalUserId: input.externalUserId,
              boundByStaffId: input.staffId,
            })
            .returning();
          const after = { externalUserId: input.externalUserId, customerId: input.customerId };
          await tx.insert(auditLog).values(auditEntry(input, 'kyc.bind', 'kyc_binding', input.externalUserId, null, after));
          return row!;
        });
      } catch (error) {
        // The driver's error, kept as the cause, names the constraint.
        const { message, cause } = error as Error;
        const text = `${message} ${cause instanceof Error ? cause.message : ''}`;
        if (text.includes('kyc_binding_contact_uq')) return 'contact' as const;
        if (text.includes('kyc_binding_customer_uq')) return 'customer' as const;
        throw error;
      }
    },

    /** Only if it is still the one we saw; with its audit row. */
    async unbind(input: { corpId: number; staffId: number; bindingId: number; externalUserId: string; customerId: number }) {
      return db.transaction(async (tx) => {
        const deleted = await tx.delete(kycBindings).where(eq(kycBindings.id, input.bindingId)).returning({ id: kycBindings.id });
        if (deleted.length === 0) return false;
        const before = { externalUserId: input.externalUserId, customerId: input.customerId };
        await tx.insert(auditLog).values(auditEntry(input, 'kyc.unbind', 'kyc_binding', input.externalUserId, before, null));
        return true;
      });
    },
  };
}

export type KycRepository = ReturnType<typeof createKycRepository>;
