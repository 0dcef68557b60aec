import { desc, eq } from 'drizzle-orm';
import type { Currency } from '@broker/contract';
import type { Database } from '../../db/client';
import { exchangeRates, staff } from '../../db/schema';

export function createStaffRepository(db: Database) {
  return {
    async settings(staffId: number) {
      const [row] = await db
        .select({ ccy: staff.defaultCurrency, motFold: staff.motFold })
        .from(staff)
        .where(eq(staff.id, staffId))
        .limit(1);
      return row;
    },
    async setDefaultCurrency(staffId: number, ccy: Currency) {
      await db.update(staff).set({ defaultCurrency: ccy, updatedAt: new Date() }).where(eq(staff.id, staffId));
    },
    /** Units per 1 HKD. */
    async latestExchangeRates() {
      return db
        .selectDistinctOn([exchangeRates.currency], { currency: exchangeRates.currency, rate: exchangeRates.rate })
        .from(exchangeRates)
        .orderBy(exchangeRates.currency, desc(exchangeRates.rateDate));
    },
  };
}
