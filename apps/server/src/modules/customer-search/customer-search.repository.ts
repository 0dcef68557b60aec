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
export interface PageView extends PageWindow {
  sortBy: SortField;
  sortOrder: SortOrder;
}

// A scalar subquery: an InitPlan computed once per statement.
const hkMonthStart = sql`(select date_trunc('month', now() at time zone 'Asia/Hong_Kong')::date)`;

/** `totalAssetsHkd` is numeric as text, so sums stay exact to the cent. */
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

/** The stat from the book's summary (ADR 0006); "new this month" depends on today, so it is counted live. */
const summaryStatColumns = (criteria: CustomerCriteria) =>
  selectionWithValues({
    channel: b.channel,
    clients: sql<number>`sum(${b.clients})::int`,
    totalAssetsHkd: sql<string>`sum(${b.totalAssetsHkd})::text`,
    active: sql<number>`coalesce(sum(${b.clients}) filter (where ${b.status} = 'active'), 0)::int`,
    newThisMonth: sql<number>`(select count(*) from ${customerC} where ${customerWhere(criteria)} and ${c.channel} = ${b.channel}
                                 and ${c.openDate} >= ${hkMonthStart})::int`,
  });

/** The book's version (bumped by every write of the book, ADR 0035) and the Hong Kong month. */
const bookStateColumns = (criteria: CustomerCriteria) =>
  selectionWithValues({
    version: sql<string>`coalesce((select ${v.version} from ${bookVersionV} where ${v.corpId} = ${criteria.corpId} and ${v.staffId} = ${criteria.staffId}), 0)::text`,
    month: sql<string>`${hkMonthStart}::text`,
  });

/** Descending: key, then id ascending, no trade last; ascending walks it reversed; a keyword's tiers first. */
export function listOrder(criteria: CustomerCriteria, sortBy: SortField, sortOrder: SortOrder): SQL {
  const column = { totalAssets: c.totalAssetsHkd, openDate: c.openDate, lastTrade: c.lastTradeDate }[sortBy];
  const nulls = sortBy === 'lastTrade' ? (sortOrder === 'desc' ? sql` nulls last` : sql` nulls first`) : sql``;
  const sorted = sortOrder === 'desc' ? sql`${column} desc${nulls}, ${c.id} asc` : sql`${column} asc${nulls}, ${c.id} desc`;
  const tier = criteria.keyword && matchTierSql(criteria.keyword, criteria.corpId);
  return tier ? sql`${tier}, ${sorted}` : sorted;
}

/** A keyword too short for its GIN indexes is tested entry by entry over the book's staff indexes. */
const keywordUse = (criteria: CustomerCriteria) => (criteria.keyword && !criteria.keyword.narrowsByIndex ? 'filter' : 'index');

/**
 * A client manager's search of their book for one row shape: the book's index answers when it holds the book
 * at the database's version (ADR 0035); SQL answers the rest, one plain statement per request.
 */
export function createCustomerSearch<Columns extends Selection>(
  db: Database,
  columns: Columns,
  indexes?: BookIndexStore,
  /** The row built from what the index holds: a search it answers then reads only the book's version. */
  rowFromIndex?: (customer: HeldCustomer) => RowOf<Columns>,
) {
  type Row = RowOf<Columns>;
  const rowColumns = selection(columns);

  const bookState = async (criteria: CustomerCriteria) => {
    const [row] = await selectRows(db, selectQuery(bookStateColumns(criteria), sql``), { prepare: true });
    return row!;
  };

  /** The page's ids first, then their columns (the per-row subqueries run for the rows shown only). */
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

  /** The rows for ids found in memory, with the book's version in the same statement. */
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

  /** Each try after a write catches the index up first. */
  const INDEX_TRIES = 3;

  async function searchInMemory(criteria: CustomerCriteria, view: PageView): Promise<{ rows: Row[]; total: number } | undefined> {
    for (let attempt = 0; attempt < INDEX_TRIES; attempt += 1) {
      const index = await indexes!.indexFor(criteria.corpId, criteria.staffId);
      if (!index) return undefined;
      if (rowFromIndex) {
        const state = await bookState(criteria);
        // Synchronous from the check on: the index cannot change before the rows are built.
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

  async function statInMemory(criteria: CustomerCriteria): Promise<StatRow[] | undefined> {
    for (let attempt = 0; attempt < INDEX_TRIES; attempt += 1) {
      const index = await indexes!.indexFor(criteria.corpId, criteria.staffId);
      if (!index) return undefined;
      const state = await bookState(criteria);
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
        // The index's version is the primary's; SQL may answer from a standby (ADR 0052).
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
