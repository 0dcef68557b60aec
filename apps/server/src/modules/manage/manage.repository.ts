import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { exchangeRates } from '../../db/schema';
import { float8, selection, selectQuery, selectRows } from '../../db/sql-rows';
import { createCustomerSearch, searchAliases, type BookIndexStore, type HeldCustomer, type RowOf } from '../customer-search';

const { c, a, k, b, accountA, kycBindingK, bookSummaryB } = searchAliases;

/** Cast where the driver or JSON would hand back something else (bigint, numeric, dates); subqueries per page row. */
const listColumns = {
  id: sql<number>`${c.id}::float8`,
  customerNo: c.customerNo,
  nameCn: c.nameCn,
  nameEn: c.nameEn,
  phone: c.phone,
  phoneDigits: c.phoneDigits,
  idDocMasked: c.idDocMasked,
  idDocLast4: c.idDocLast4,
  accountNos: sql<string[]>`array(select ${a.accountNo} from ${accountA} where ${a.customerId} = ${c.id} order by ${a.id})`,
  channel: c.channel,
  status: c.status,
  riskLevel: c.riskLevel,
  tags: c.tags,
  kycBound: sql<boolean>`exists (select 1 from ${kycBindingK} where ${k.customerId} = ${c.id} and ${k.corpId} = ${c.corpId})`,
  totalAssetsHkd: sql<number>`${c.totalAssetsHkd}::float8`,
  openDate: sql<string>`${c.openDate}::text`,
  lastTradeDate: sql<string | null>`${c.lastTradeDate}::text`,
};
export type ListRow = RowOf<typeof listColumns>;

/** From the book's index: cents / 100 is the double `numeric::float8` gives. */
const listRowFromIndex = ({ assetCents, ...customer }: HeldCustomer): ListRow => ({ ...customer, totalAssetsHkd: assetCents / 100 });

/** Units per 1 HKD. */
const rateColumns = selection({ rate: float8(exchangeRates.rate) });
/** From the per-manager summary. */
const channelColumns = selection({ channel: b.channel, clients: sql<number>`sum(${b.clients})::int` });

/** `indexes`: the books held in memory (ADR 0035); without them every search is answered in SQL. */
export function createManageRepository(db: Database, indexes?: BookIndexStore) {
  const customerSearch = createCustomerSearch(db, listColumns, indexes, listRowFromIndex);
  return {
    search: customerSearch.search,
    stat: customerSearch.stat,

    async rate(currency: string): Promise<number | undefined> {
      const [row] = await selectRows(
        db,
        selectQuery(
          rateColumns,
          sql`from ${exchangeRates} where ${exchangeRates.currency} = ${currency} order by ${exchangeRates.rateDate} desc limit 1`,
        ),
      );
      return row?.rate;
    },

    async channels(corpId: number, staffId: number) {
      return selectRows(
        db,
        selectQuery(
          channelColumns,
          sql`from ${bookSummaryB} where ${b.staffId} = ${staffId} and ${b.corpId} = ${corpId}
              group by ${b.channel} having sum(${b.clients}) > 0 order by "clients" desc, ${b.channel}`,
        ),
      );
    },
  };
}

export type ManageRepository = ReturnType<typeof createManageRepository>;
