import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { onPrimary } from '../../db/read-routing';
import { selection, selectionWithValues, selectQuery, selectRowSets, selectRows, type RowOf as RowOfSelection } from '../../db/sql-rows';
import { bookIndexCounters, type BookIndexStore } from './book-index-store';
import type { HeldCustomer } from './book-index';
import { customerWhere, servedBySummary, summaryWhere, type CustomerCriteria } from './customer-filters';
import { b, bookSummaryB, bookVersionV, c, customerC, v, type RowOf, type Selection } from './customer-tables';
import { matchTierSql } from './match-tier';

export type SortField = 'totalAssets' | 'openDate' | 'lastTrade';
export type SortOrder = 'asc' | 'desc';
export interface PageWindow {
  pageNum: number;
  pageSize: number;
}
/** Which page of a search, in which order. */
export interface PageView extends PageWindow {
  sortBy: SortField;
  sortOrder: SortOrder;
}

// A scalar subquery, so it is computed once per statement (an InitPlan) instead of once per row counted.
const hkMonthStart = sql`(select date_trunc('month', now() at time zone 'Asia/Hong_Kong')::date)`;

/** Per channel; `totalAssetsHkd` is numeric as text, so sums stay exact to the cent. */
const statColumns = selection({
  channel: c.channel,
  clients: sql<number>`count(*)::int`,
  totalAssetsHkd: sql<string>`coalesce(sum(${c.totalAssetsHkd}), 0)::text`,
  active: sql<number>`(count(*) filter (where ${c.status} = 'active'))::int`,
  newThisMonth: sql<number>`(count(*) filter (where ${c.openDate} >= ${hkMonthStart}))::int`,
});
export type StatRow = RowOfSelection<typeof statColumns>;
const totalColumns = selection({ total: sql<number>`count(*)::int` });
const summaryTotalColumns = selection({ total: sql<number>`coalesce(sum(${b.clients}), 0)::int` });

/**
 * The stat from the book's summary (ADR 0006) when it holds the answer (`servedBySummary`); "new this month"
 * depends on today, so it is counted live per channel, a short range of the open-date index.
 */
const summaryStatColumns = (criteria: CustomerCriteria) =>
  selectionWithValues({
    channel: b.channel,
    clients: sql<number>`sum(${b.clients})::int`,
    totalAssetsHkd: sql<string>`sum(${b.totalAssetsHkd})::text`,
    active: sql<number>`coalesce(sum(${b.clients}) filter (where ${b.status} = 'active'), 0)::int`,
    newThisMonth: sql<number>`(select count(*) from ${customerC} where ${customerWhere(criteria)} and ${c.channel} = ${b.channel}
                                 and ${c.openDate} >= ${hkMonthStart})::int`,
  });

/**
 * The book's state as read at the start of a request: `staff_book_version.version` (migration 0013, bumped in
 * the writer's transaction by every customer, KYC-binding and account write of the book; bigint as text) and
 * the Hong Kong month, which "new this month" counts against without any write.
 */
const bookStateColumns = (criteria: CustomerCriteria) =>
  selectionWithValues({
    version: sql<string>`coalesce((select ${v.version} from ${bookVersionV} where ${v.corpId} = ${criteria.corpId} and ${v.staffId} = ${criteria.staffId}), 0)::text`,
    month: sql<string>`${hkMonthStart}::text`,
  });

/**
 * The list's order (descending: key descending, ties by id ascending, no trade last; ascending is that
 * reversed, as the book index walks it): with a keyword, its tiers first (`matchTierSql`, ADR 0046 §5).
 */
export function listOrder(criteria: CustomerCriteria, sortBy: SortField, sortOrder: SortOrder): SQL {
  const column = { totalAssets: c.totalAssetsHkd, openDate: c.openDate, lastTrade: c.lastTradeDate }[sortBy];
  const nulls = sortBy === 'lastTrade' ? (sortOrder === 'desc' ? sql` nulls last` : sql` nulls first`) : sql``;
  const sorted = sortOrder === 'desc' ? sql`${column} desc${nulls}, ${c.id} asc` : sql`${column} asc${nulls}, ${c.id} desc`;
  const tier = criteria.keyword && matchTierSql(criteria.keyword, criteria.corpId);
  return tier ? sql`${tier}, ${sorted}` : sorted;
}

/**
 * A keyword too short for its GIN indexes (one Chinese character, one or two letters or digits) is tested
 * entry by entry over the book's staff indexes (`keywordCondition`'s `filter`).
 */
const keywordUse = (criteria: CustomerCriteria) => (criteria.keyword && !criteria.keyword.narrowsByIndex ? 'filter' : 'index');

/**
 * A client manager's search of their book, for one row shape (`columns`, over the customer `c`): the page,
 * its total and the header stat. The book's in-memory index answers whenever it holds the book at the
 * database's version (ADR 0035); SQL answers the rest (a book over the budget, one still loading), plainly,
 * one statement per request.
 */
export function createCustomerSearch<Columns extends Selection>(
  db: Database,
  columns: Columns,
  indexes?: BookIndexStore,
  /**
   * The row shape built from what the book's index holds, when it holds all of it: a search the index
   * answers then reads only the book's version (one primary-key row) instead of its page's rows (ADR
   * 0035). Must give what `columns` gives for the same customer (the equivalence test checks).
   */
  rowFromIndex?: (customer: HeldCustomer) => RowOf<Columns>,
) {
  type Row = RowOf<Columns>;
  const rowColumns = selection(columns);

  const bookState = async (criteria: CustomerCriteria) => {
    const [row] = await selectRows(db, selectQuery(bookStateColumns(criteria), sql``), { prepare: true });
    return row!;
  };

  /** The page's ids first, then their columns (the per-row subqueries run for the rows shown only), and the total. */
  async function searchInSql(criteria: CustomerCriteria, view: PageView): Promise<{ rows: Row[]; total: number }> {
    const order = listOrder(criteria, view.sortBy, view.sortOrder);
    const { rows, total } = await selectRowSets(db, {
      rows: selectQuery(
        rowColumns,
        sql`from (select ${c.id} from ${customerC} where ${customerWhere(criteria, false, keywordUse(criteria))}
                  order by ${order} limit ${view.pageSize} offset ${(view.pageNum - 1) * view.pageSize}) page
            join ${customerC} on ${c.id} = page.id and ${c.corpId} = ${criteria.corpId}
            order by ${order}`,
      ),
      total: servedBySummary(criteria)
        ? selectQuery(summaryTotalColumns, sql`from ${bookSummaryB} where ${summaryWhere(criteria)}`)
        : selectQuery(totalColumns, sql`from ${customerC} where ${customerWhere(criteria, true, keywordUse(criteria))}`),
    });
    return { rows, total: total[0]!.total };
  }

  const statInSql = (criteria: CustomerCriteria) =>
    selectRows(
      db,
      servedBySummary(criteria)
        ? selectQuery(
            summaryStatColumns(criteria),
            sql`from ${bookSummaryB} where ${summaryWhere(criteria)}
                group by ${b.channel} having sum(${b.clients}) > 0 order by clients desc, ${b.channel}`,
          )
        : selectQuery(
            statColumns,
            sql`from ${customerC} where ${customerWhere(criteria, true, keywordUse(criteria))} group by ${c.channel} order by clients desc, ${c.channel}`,
          ),
    );

  /**
   * The page's rows for ids found in memory, in that order, with the book's version read in the same
   * statement: the ids are right only if the version is still the index's (ADR 0035).
   */
  const rowsByIds = (criteria: CustomerCriteria, ids: number[]) =>
    selectRowSets(
      db,
      {
        rows: selectQuery(
          rowColumns,
          sql`from unnest(${`{${ids.join(',')}}`}::bigint[]) with ordinality as page(id, position)
              join ${customerC} on ${c.id} = page.id and ${c.corpId} = ${criteria.corpId}
              order by page.position`,
        ),
        book: selectQuery(bookStateColumns(criteria), sql``),
      },
      { prepare: true },
    );

  /** How many times a search tries its book's index before SQL answers (each try after a write catches up first). */
  const INDEX_TRIES = 3;

  /** A search answered from the book's index, or undefined when SQL must answer (ADR 0035). */
  async function searchInMemory(criteria: CustomerCriteria, view: PageView): Promise<{ rows: Row[]; total: number } | undefined> {
    for (let attempt = 0; attempt < INDEX_TRIES; attempt += 1) {
      const index = await indexes!.indexFor(criteria.corpId, criteria.staffId);
      if (!index) return undefined;
      if (rowFromIndex) {
        const state = await bookState(criteria);
        // Synchronous from the check on: the index cannot change between it and the page's rows.
        if (index.version === state.version) {
          const page = index.page(criteria, view.sortBy, view.sortOrder, view);
          if (!page) return undefined;
          bookIndexCounters.served += 1;
          return { rows: page.ids.map((id) => rowFromIndex(index.customer(id)!)), total: page.total };
        }
        await indexes!.refresh(criteria.corpId, criteria.staffId, index);
        continue;
      }
      const version = index.version;
      const page = index.page(criteria, view.sortBy, view.sortOrder, view);
      if (!page) return undefined;
      const { rows, book } = await rowsByIds(criteria, page.ids);
      if (book[0]!.version === version) {
        bookIndexCounters.served += 1;
        return { rows, total: page.total };
      }
      await indexes!.refresh(criteria.corpId, criteria.staffId, index);
    }
    return undefined;
  }

  /** The header stat from the book's index, or undefined when SQL must answer. */
  async function statInMemory(criteria: CustomerCriteria): Promise<StatRow[] | undefined> {
    for (let attempt = 0; attempt < INDEX_TRIES; attempt += 1) {
      const index = await indexes!.indexFor(criteria.corpId, criteria.staffId);
      if (!index) return undefined;
      const state = await bookState(criteria);
      // Synchronous from the check on: the index cannot change between the two.
      if (index.version === state.version) {
        const rows = index.stat(criteria, state.month);
        if (rows) bookIndexCounters.served += 1;
        return rows;
      }
      await indexes!.refresh(criteria.corpId, criteria.staffId, index);
    }
    return undefined;
  }

  return {
    async search(criteria: CustomerCriteria, view: PageView): Promise<{ rows: Row[]; total: number }> {
      if (indexes) {
        // The index and the version it is checked against are the primary's; SQL may answer from a standby (ADR 0052).
        const answered = await onPrimary(() => searchInMemory(criteria, view));
        if (answered) return answered;
        bookIndexCounters.askedSql += 1;
      }
      return searchInSql(criteria, view);
    },

    async stat(criteria: CustomerCriteria): Promise<StatRow[]> {
      if (indexes) {
        const answered = await onPrimary(() => statInMemory(criteria));
        if (answered) return answered;
        bookIndexCounters.askedSql += 1;
      }
      return statInSql(criteria);
    },
  };
}

export type CustomerSearch<Columns extends Selection> = ReturnType<typeof createCustomerSearch<Columns>>;
