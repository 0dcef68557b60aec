import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { onPrimary } from '../../db/read-routing';
import {
  rowsQuery,
  selection,
  selectionWithValues,
  selectQuery,
  selectRowSets,
  selectRows,
  type RowOf as RowOfSelection,
} from '../../db/sql-rows';
import { BookResultCache, criteriaKey } from './book-result-cache';
import { bookIndexCounters, type BookIndexStore } from './book-index-store';
import type { HeldCustomer } from './book-index';
import { customerWhere, servedBySummary, servedBySummaryMinusBound, summaryWhere, type CustomerCriteria } from './customer-filters';
import { b, bookSummaryB, bookVersionV, c, customerC, v, type RowOf, type Selection } from './customer-tables';
import { pageIds, listOrder } from './page-query';
import { planPage, type KeywordTotal, type PagePlan, type PageWindow, type SortField, type SortOrder } from './page-plan';
import { CODE_FILTER_STATEMENTS, statementBudget } from './statement-budget';

/** Which page of a search, in which order. */
export interface PageView extends PageWindow {
  sortBy: SortField;
  sortOrder: SortOrder;
}

// A scalar subquery, so it is computed once per statement (an InitPlan) instead of once per row counted.
const hkMonthStart = sql`(select date_trunc('month', now() at time zone 'Asia/Hong_Kong')::date)`;

/** Per channel; `totalAssetsHkd` is numeric as text, so sums stay exact to the cent. */
const liveStatColumns = selection({
  channel: c.channel,
  clients: sql<number>`count(*)::int`,
  totalAssetsHkd: sql<string>`coalesce(sum(${c.totalAssetsHkd}), 0)::text`,
  active: sql<number>`(count(*) filter (where ${c.status} = 'active'))::int`,
  newThisMonth: sql<number>`(count(*) filter (where ${c.openDate} >= ${hkMonthStart}))::int`,
});
export type StatRow = RowOfSelection<typeof liveStatColumns>;
/** The summary's figures per channel; "new this month" is counted live beside them. */
const summaryStatColumns = selection({
  channel: b.channel,
  clients: sql<number>`sum(${b.clients})::int`,
  totalAssetsHkd: sql<string>`sum(${b.totalAssetsHkd})::text`,
  active: sql<number>`coalesce(sum(${b.clients}) filter (where ${b.status} = 'active'), 0)::int`,
});
/** The same, as the summary's grouped rows (`b`) minus the bound clients' (`k`): columns of the two subqueries, not tables. */
const summaryMinusBoundColumns = selection({
  channel: sql<string>`b.channel`,
  clients: sql<number>`(b.clients - coalesce(k.clients, 0))::int`,
  totalAssetsHkd: sql<string>`(b.assets - coalesce(k.assets, 0))::text`,
  active: sql<number>`(b.active - coalesce(k.active, 0))::int`,
});
const newThisMonthColumns = selection({ channel: c.channel, newThisMonth: sql<number>`count(*)::int` });

/** The book's version (a primary-key lookup), as a column of whichever statement needs it. */
const bookVersion = (criteria: CustomerCriteria) =>
  sql<string>`coalesce((select ${v.version} from ${bookVersionV} where ${v.corpId} = ${criteria.corpId} and ${v.staffId} = ${criteria.staffId}), 0)::text`;
/**
 * The book's state as read at the start of a request: `staff_book_version.version` (migration 0013,
 * bumped in the writer's transaction by every customer, KYC-binding and account write of the
 * book; bigint as text, exact however far it grows) and the Hong Kong month, which "new this month"
 * counts against without any write.
 */
const bookStateColumns = (criteria: CustomerCriteria) =>
  selectionWithValues({ version: bookVersion(criteria), month: sql<string>`${hkMonthStart}::text` });

/**
 * A client manager's search of their book, for one row shape (`columns`, over the customer `c`):
 * the page, its total and the header stat, each in as few statements as ADR 0008 allows, with the
 * path to a keyword's page chosen from its cached count (ADR 0009).
 *
 * `cache` holds the totals and stats of live filters (see BookResultCache); one per search, since
 * its entries are only valid against the database they were read from.
 */
export function createCustomerSearch<Columns extends Selection>(
  db: Database,
  columns: Columns,
  cache: BookResultCache = new BookResultCache(),
  indexes?: BookIndexStore,
  /**
   * The row shape built from what the book's index holds, when it holds all of it: a search the index
   * answers then reads only the book's version (one primary-key row) instead of its page's rows (ADR
   * 0035's addendum). Must give what `columns` gives for the same customer (the equivalence test checks).
   */
  rowFromIndex?: (customer: HeldCustomer) => RowOf<Columns>,
) {
  type Row = RowOf<Columns>;
  /** The row shape's select list, rendered once. */
  const rowColumns = selection(columns);
  const admitCodeFilterStatement = statementBudget(CODE_FILTER_STATEMENTS);
  /** What a `codeFilters` statement's text depends on: everything but the book (a parameter). */
  const codeFilterKey = (criteria: CustomerCriteria, view: PageView) =>
    JSON.stringify([
      criteria.channels,
      criteria.statuses,
      criteria.markets,
      criteria.hasHolding,
      criteria.kycBound,
      view.sortBy,
      view.sortOrder,
      { pageNum: view.pageNum, pageSize: view.pageSize },
    ]);
  /** Read before anything is computed from the book (see BookResultCache). */
  const bookState = async (criteria: CustomerCriteria) => {
    const [row] = await selectRows(db, selectQuery(bookStateColumns(criteria), sql``), { prepare: true });
    return row!;
  };
  /**
   * Live stats read the whole filtered book, so they are cached while the book is unchanged; the
   * summary's answers read a few summary rows and are not (ADR 0029 has the figures). (Search totals
   * are cached by `countLive`, checked against the version the page statement reads.)
   */
  const cachedStat = async (criteria: CustomerCriteria, compute: () => Promise<StatRow[]>): Promise<StatRow[]> => {
    if (servedBySummary(criteria)) return compute();
    const state = await bookState(criteria);
    // "New this month" changes with the month, not only with writes.
    return cache.getOrCompute(`stat:${state.month}:${criteriaKey(criteria)}`, state.version, compute);
  };

  /** The number of customers matching, from the summary: only when `summaryAnswers(criteria)`. */
  const summaryTotal = (criteria: CustomerCriteria) => {
    const fromSummary = sql`select coalesce(sum(${b.clients}), 0) from ${bookSummaryB} where ${summaryWhere(criteria)}`;
    return servedBySummary(criteria)
      ? sql<number>`(${fromSummary})::int`
      : sql<number>`((${fromSummary}) - (select count(*) from ${customerC} where ${customerWhere({ ...criteria, kycBound: true })}))::int`;
  };
  const summaryAnswers = (criteria: CustomerCriteria) => servedBySummary(criteria) || servedBySummaryMinusBound(criteria);

  const totalKey = (criteria: CustomerCriteria) => `total:${criteriaKey(criteria)}`;
  /**
   * Counts the customers matching, with the book's version read in the same statement (so the count
   * is exactly that version's), and caches it under that version.
   */
  const countLive = async (criteria: CustomerCriteria): Promise<{ version: string; value: KeywordTotal }> => {
    // A keyword too short for its GIN indexes is tested entry by entry; written so, the planner
    // counts over the book's covering index without heap visits, instead of visiting every match's row.
    const keywordUse = criteria.keyword?.narrowsByIndex ? 'index' : 'filter';
    const counted = selectionWithValues({
      version: bookVersion(criteria),
      total: sql<number>`(select count(*) from ${customerC} where ${customerWhere(criteria, true, keywordUse)})::int`,
    });
    const [row] = await selectRows(db, selectQuery(counted, sql``));
    const { version, ...value } = row!;
    cache.store(totalKey(criteria), version, value);
    return { version, value };
  };

  /** The columns of a page's rows, for ids chosen by `pageIds`. */
  const pageRows = (criteria: CustomerCriteria, view: PageView, plan: PagePlan) =>
    plan === 'empty'
      ? rowsQuery<Row>(sql`select null where false`)
      : // The page's ids first, then its columns: the per-row subqueries (accounts, KYC) run for the
        // rows shown, not for every row an OFFSET skips (ADR 0029 has the figures).
        selectQuery(
          rowColumns,
          sql`from (${pageIds(criteria, view.sortBy, view.sortOrder, view, plan)}) page
              join ${customerC} on ${c.id} = page.id and ${c.corpId} = ${criteria.corpId}
              order by ${listOrder(criteria, view.sortBy, view.sortOrder)}`,
        );

  /** Per channel; sums are numeric in SQL so the HKD totals are exact to the cent. */
  async function computeStat(criteria: CustomerCriteria): Promise<StatRow[]> {
    const minusBound = servedBySummaryMinusBound(criteria);
    if (!servedBySummary(criteria) && !minusBound) {
      return selectRows(
        db,
        selectQuery(
          liveStatColumns,
          sql`from ${customerC} where ${customerWhere(criteria)} group by ${c.channel} order by clients desc, ${c.channel}`,
        ),
      );
    }
    // The month's new clients depend on today, so they are counted live: a short range of the open-date index.
    const [rows, fresh] = await Promise.all([
      selectRows(
        db,
        minusBound
          ? selectQuery(
              summaryMinusBoundColumns,
              sql`from (select ${b.channel}, sum(${b.clients}) as clients, sum(${b.totalAssetsHkd}) as assets,
                               coalesce(sum(${b.clients}) filter (where ${b.status} = 'active'), 0) as active
                        from ${bookSummaryB} where ${summaryWhere(criteria)} group by ${b.channel}) b
                  left join (select ${c.channel}, count(*) as clients, sum(${c.totalAssetsHkd}) as assets,
                                    count(*) filter (where ${c.status} = 'active') as active
                             from ${customerC} where ${customerWhere({ ...criteria, kycBound: true })} group by ${c.channel}) k on k.channel = b.channel
                  where b.clients - coalesce(k.clients, 0) > 0
                  order by clients desc, b.channel`,
            )
          : selectQuery(
              summaryStatColumns,
              sql`from ${bookSummaryB} where ${summaryWhere(criteria)}
                  group by ${b.channel} having sum(${b.clients}) > 0 order by clients desc, ${b.channel}`,
            ),
      ),
      selectRows(
        db,
        selectQuery(
          newThisMonthColumns,
          sql`from ${customerC} where ${customerWhere(criteria)} and ${c.openDate} >= ${hkMonthStart} group by ${c.channel}`,
        ),
      ),
    ]);
    const freshByChannel = new Map(fresh.map((row) => [row.channel, row.newThisMonth]));
    return rows.map((row) => ({ ...row, newThisMonth: freshByChannel.get(row.channel) ?? 0 }));
  }

  /**
   * The page's rows for ids found in memory, in that order, with the book's version and the Hong
   * Kong month read in the same statement: the ids are right only if the version is still the
   * index's (ADR 0035).
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
        return { rows: rows as Row[], total: page.total };
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
    /**
     * One statement in the usual case: the page, with the book version that says whether the
     * cached total still holds (or the summary's total, which is not cached). A first keyword
     * search counts before it pages, since how the page is found depends on the count (`planPage`).
     */
    async search(criteria: CustomerCriteria, view: PageView): Promise<{ rows: Row[]; total: number }> {
      if (indexes) {
        // The index and the version it is checked against are the primary's; SQL may answer from a standby (ADR 0052).
        const answered = await onPrimary(() => searchInMemory(criteria, view));
        if (answered) return answered;
        bookIndexCounters.askedSql += 1;
      }
      const fromSummary = summaryAnswers(criteria);
      let known = fromSummary ? undefined : cache.peek<KeywordTotal>(totalKey(criteria));
      if (!known && criteria.keyword) known = await countLive(criteria);
      let plan = planPage(criteria, view, known?.value);
      if (plan === 'codeFilters' && !admitCodeFilterStatement(codeFilterKey(criteria, view))) plan = 'planner';
      const { rows, book } = await selectRowSets(
        db,
        {
          rows: pageRows(criteria, view, plan),
          book: selectQuery(
            selectionWithValues({
              version: bookVersion(criteria),
              total: fromSummary ? summaryTotal(criteria) : sql<number | null>`null::int`,
            }),
            sql``,
          ),
        },
        { prepare: plan !== 'planner' },
      );
      const { version, total } = book[0]!;
      if (fromSummary) return { rows, total: total! };
      if (known && known.version === version) return { rows, total: known.value.total };
      // The book changed since the total was counted (or it never was): count again. The page already
      // read is right whatever plan found it, unless the plan trusted an old "nothing matches".
      const fresh = await countLive(criteria);
      if (plan !== 'empty' || fresh.value.total === 0) return { rows, total: fresh.value.total };
      const retryPlan = planPage(criteria, view, fresh.value);
      const retried = await selectRows<Row>(db, pageRows(criteria, view, retryPlan), { prepare: retryPlan !== 'planner' });
      return { rows: retried, total: fresh.value.total };
    },

    async stat(criteria: CustomerCriteria): Promise<StatRow[]> {
      if (indexes) {
        const answered = await onPrimary(() => statInMemory(criteria));
        if (answered) return answered;
        bookIndexCounters.askedSql += 1;
      }
      return cachedStat(criteria, () => computeStat(criteria));
    },
  };
}

export type CustomerSearch<Columns extends Selection> = ReturnType<typeof createCustomerSearch<Columns>>;
