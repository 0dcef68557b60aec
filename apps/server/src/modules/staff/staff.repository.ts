import { eq } from 'drizzle-orm';
import type { Currency } from '@broker/contract';
import type { Database } from '../../db/client';
import { staff } from '../../db/schema';

export function createStaffRepository(db: Database) {
  return {
    async defaultCurrency(staffId: number): Promise<string | undefined> {
      const [row] = await db.select({ ccy: staff.defaultCurrency }).from(staff).where(eq(staff.id, staffId)).limit(1);
      return row?.ccy;
    },
    async setDefaultCurrency(staffId: number, ccy: Currency) {
      await db.update(staff).set({ defaultCurrency: ccy, updatedAt: new Date() }).where(eq(staff.id, staffId));
    },
  };
}
