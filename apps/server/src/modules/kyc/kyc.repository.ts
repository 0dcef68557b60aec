import { and, count, eq, ilike, inArray, like, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { accounts, auditLog, customers, kycBindings } from '../../db/schema';

/** `%` and `_` typed by a user are literal characters, not wildcards. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

export interface CustomerScope {
  corpId: number;
  staffId: number;
}

export function createKycRepository(db: Database) {
  return {
    /** Own customers matching a name (partial), phone (any part), account number or ID tail. */
    async searchOwnCustomers(scope: CustomerScope, keyword: string, page: { pageNum: number; pageSize: number }) {
      const pattern = `%${escapeLike(keyword)}%`;
      const digits = keyword.replace(/\D/g, '');
      const matches: SQL[] = [ilike(customers.nameCn, pattern), ilike(customers.nameEn, pattern)];
      if (digits.length >= 3) matches.push(like(customers.phoneDigits, `%${digits}%`));
      if (/^[0-9A-Za-z]{4}$/.test(keyword)) matches.push(eq(customers.idDocLast4, keyword.toUpperCase()));
      matches.push(
        sql`exists (select 1 from ${accounts} where ${accounts.customerId} = ${customers.id} and ${accounts.accountNo} = ${keyword})`,
      );
      const where = and(eq(customers.corpId, scope.corpId), eq(customers.staffId, scope.staffId), or(...matches));

      const [rows, [totalRow]] = await Promise.all([
        db
          .select({
            customerId: customers.id,
            customerNo: customers.customerNo,
            nameCn: customers.nameCn,
            nameEn: customers.nameEn,
            phone: customers.phone,
            idDoc: customers.idDocMasked,
            status: customers.status,
            boundExternalUserId: kycBindings.externalUserId,
          })
          .from(customers)
          .leftJoin(kycBindings, and(eq(kycBindings.customerId, customers.id), eq(kycBindings.corpId, customers.corpId)))
          .where(where)
          .orderBy(customers.nameEn, customers.id)
          .limit(page.pageSize)
          .offset((page.pageNum - 1) * page.pageSize),
        db.select({ total: count() }).from(customers).where(where),
      ]);
      const ids = rows.map((row) => row.customerId);
      const accountRows = ids.length
        ? await db
            .select({ customerId: accounts.customerId, accountNo: accounts.accountNo })
            .from(accounts)
            .where(inArray(accounts.customerId, ids))
            .orderBy(accounts.accountNo)
        : [];
      return {
        rows: rows.map((row) => ({
          ...row,
          accountNos: accountRows.filter((account) => account.customerId === row.customerId).map((account) => account.accountNo),
        })),
        total: Number(totalRow?.total ?? 0),
      };
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

    /** Inserts the binding and its audit row together; a unique violation surfaces as `'contact' | 'customer'`. */
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
          await tx.insert(auditLog).values({
            corpId: input.corpId,
            actorStaffId: input.staffId,
            action: 'kyc.bind',
            entity: 'kyc_binding',
            entityId: input.externalUserId,
            before: null,
            after: { externalUserId: input.externalUserId, customerId: input.customerId },
          });
          return row!;
        });
      } catch (error) {
        const text = `${(error as Error).message} ${String((error as { cause?: unknown }).cause ?? '')}`;
        if (text.includes('kyc_binding_contact_uq')) return 'contact' as const;
        if (text.includes('kyc_binding_customer_uq')) return 'customer' as const;
        throw error;
      }
    },

    /** Deletes the binding (only if it is still the one we saw) and writes the audit row. */
    async unbind(input: { corpId: number; staffId: number; bindingId: number; externalUserId: string; customerId: number }) {
      return db.transaction(async (tx) => {
        const deleted = await tx.delete(kycBindings).where(eq(kycBindings.id, input.bindingId)).returning({ id: kycBindings.id });
        if (deleted.length === 0) return false;
        await tx.insert(auditLog).values({
          corpId: input.corpId,
          actorStaffId: input.staffId,
          action: 'kyc.unbind',
          entity: 'kyc_binding',
          entityId: input.externalUserId,
          before: { externalUserId: input.externalUserId, customerId: input.customerId },
          after: null,
        });
        return true;
      });
    },
  };
}

export type KycRepository = ReturnType<typeof createKycRepository>;
