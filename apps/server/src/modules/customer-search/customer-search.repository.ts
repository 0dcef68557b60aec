import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { rowsQuery, selectRowSets, selectRows } from '../../db/sql-rows';
import { BookResultCache, criteriaKey, type BookState } from './book-result-cache';
import { customerWhere, servedBySummary, servedBySummaryMinusBound, summaryWhere, type CustomerCriteria } from './customer-filters';
import { b, bookSummaryB, bookVersionV, c, customerC, selectList, v, type RowOf, type Selection } from './customer-tables';
import { pageIds, customerOrder } from './page-query';
import { planPage, type KeywordTotal, type PagePlan, type PageWindow, type SortField, type SortOrder } from './page-plan';
import { CODE_FILTER_STATEMENTS, statementBudget } from './statement-budget';

/** Per channel; `totalAssetsHkd` is numeric as text, so sums stay exact to the cent. */
export interface StatRow {
  channel: string;
  clients: number;
  totalAssetsHkd: string;
  active: number;
  newThisMonth: number;
}

/** Which page of a search, in which order. */
export interface PageView extends PageWindow {
  sortBy: SortField;
  sortOrder: SortOrder;
}

// A scalar subquery, so it is computed once per statement (an InitPlan) instead of once per row
// counted (41,000 rows of an open-date-filtered stat).
const hkMonthStart = sql`(select date_trunc('month', now() at time zone 'Asia/Hong_Kong')::date)`;

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
) {
  type Row = RowOf<Columns>;
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
  /** The book's version (a primary-key lookup), as a column of whichever statement needs it. */
  const bookVersion = (criteria: CustomerCriteria) =>
    sql`coalesce((select ${v.version} from ${bookVersionV} where ${v.corpId} = ${criteria.corpId} and ${v.staffId} = ${criteria.staffId}), 0)::text`;
  /** Read before anything is computed from the book (see BookResultCache). */
  const bookState = async (criteria: CustomerCriteria): Promise<BookState> => {
    const [row] = await selectRows<BookState>(db, sql`select ${bookVersion(criteria)} as version, ${hkMonthStart}::text as month`, {
      prepare: true,
    });
    return row!;
  };
  /**
   * Live stats (20–66 ms over a 125,000-client book for a broad filter) are cached while the book is
   * unchanged; the summary's answers cost well under a millisecond and are not. (Search totals are
   * cached by `countLive`, checked against the version the page statement reads.)
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
      ? sql`(${fromSummary})::int`
      : sql`((${fromSummary}) - (select count(*) from ${customerC} where ${customerWhere({ ...criteria, kycBound: true })}))::int`;
  };
  const summaryAnswers = (criteria: CustomerCriteria) => servedBySummary(criteria) || servedBySummaryMinusBound(criteria);

  const totalKey = (criteria: CustomerCriteria) => `total:${criteriaKey(criteria)}`;
  /**
   * Counts the customers matching, with the book's size and version read in the same statement (so
   * the count is exactly that version's), and caches the figures under that version.
   */
  const countLive = async (criteria: CustomerCriteria): Promise<{ version: string; value: KeywordTotal }> => {
    // A keyword too short for its GIN indexes is tested entry by entry; written so, the planner
    // counts over the book's covering index without heap visits (`Wa`: 0.4–0.6 s before).
    const keywordUse = criteria.keyword?.narrowsByIndex ? 'index' : 'filter';
    const [row] = await selectRows<{ version: string } & KeywordTotal>(
      db,
      sql`select ${bookVersion(criteria)} as version,
                 (select count(*) from ${customerC} where ${customerWhere(criteria, true, keywordUse)})::int as total,
                 (select coalesce(sum(${b.clients}), 0) from ${bookSummaryB} where ${b.staffId} = ${criteria.staffId} and ${b.corpId} = ${criteria.corpId})::int as book`,
    );
    const { version, ...value } = row!;
    cache.store(totalKey(criteria), version, value);
    return { version, value };
  };

  /** The columns of a page's rows, for ids chosen by `pageIds`. */
  const pageRows = (criteria: CustomerCriteria, view: PageView, plan: PagePlan) =>
    rowsQuery<Row>(
      plan === 'empty'
        ? sql`select null where false`
        : // The page's ids first, then its columns: the per-row subqueries (accounts, KYC) run for the
          // 20 rows shown, not for every row an OFFSET skips (page 500: 200 ms → see docs/benchmarks.md).
          sql`select ${selectList(columns)}
              from (${pageIds(criteria, view.sortBy, view.sortOrder, view, plan)}) page
              join ${customerC} on ${c.id} = page.id and ${c.corpId} = ${criteria.corpId}
              order by ${customerOrder(view.sortBy, view.sortOrder)}`,
    );

  /** Per channel; sums are numeric in SQL so the HKD totals are exact to the cent. */
  async function computeStat(criteria: CustomerCriteria): Promise<StatRow[]> {
    const minusBound = servedBySummaryMinusBound(criteria);
    if (!servedBySummary(criteria) && !minusBound) {
      return selectRows<StatRow>(
        db,
        sql`select ${c.channel}, count(*)::int as clients, coalesce(sum(${c.totalAssetsHkd}), 0)::text as "totalAssetsHkd",
                     (count(*) filter (where ${c.status} = 'active'))::int as active,
                     (count(*) filter (where ${c.openDate} >= ${hkMonthStart}))::int as "newThisMonth"
              from ${customerC} where ${customerWhere(criteria)}
              group by ${c.channel} order by clients desc, ${c.channel}`,
      );
    }
    // The month's new clients depend on today, so they are counted live: a short range of the open-date index.
    const [rows, fresh] = await Promise.all([
      selectRows<Omit<StatRow, 'newThisMonth'>>(
        db,
        minusBound
          ? // The outer query reads the two grouped subqueries (`b`: the summary's, `k`: the bound clients'), not tables.
            sql`select b.channel, (b.clients - coalesce(k.clients, 0))::int as clients,
                         (b.assets - coalesce(k.assets, 0))::text as "totalAssetsHkd", (b.active - coalesce(k.active, 0))::int as active
                  from (select ${b.channel}, sum(${b.clients}) as clients, sum(${b.totalAssetsHkd}) as assets,
                               coalesce(sum(${b.clients}) filter (where ${b.status} = 'active'), 0) as active
                        from ${bookSummaryB} where ${summaryWhere(criteria)} group by ${b.channel}) b
                  left join (select ${c.channel}, count(*) as clients, sum(${c.totalAssetsHkd}) as assets,
                                    count(*) filter (where ${c.status} = 'active') as active
                             from ${customerC} where ${customerWhere({ ...criteria, kycBound: true })} group by ${c.channel}) k on k.channel = b.channel
                  where b.clients - coalesce(k.clients, 0) > 0
                  order by clients desc, b.channel`
          : sql`select ${b.channel}, sum(${b.clients})::int as clients, sum(${b.totalAssetsHkd})::text as "totalAssetsHkd",
                         coalesce(sum(${b.clients}) filter (where ${b.status} = 'active'), 0)::int as active
                  from ${bookSummaryB} where ${summaryWhere(criteria)}
                  group by ${b.channel} having sum(${b.clients}) > 0 order by clients desc, ${b.channel}`,
      ),
      selectRows<{ channel: string; newThisMonth: number }>(
        db,
        sql`select ${c.channel}, count(*)::int as "newThisMonth" from ${customerC}
              where ${customerWhere(criteria)} and ${c.openDate} >= ${hkMonthStart} group by ${c.channel}`,
      ),
    ]);
    const freshByChannel = new Map(fresh.map((row) => [row.channel, row.newThisMonth]));
    return rows.map((row) => ({ ...row, newThisMonth: freshByChannel.get(row.channel) ?? 0 }));
  }

  return {
    /**
     * One statement in the usual case: the page, with the book version that says whether the
     * cached total still holds (or the summary's total, which is not cached). A first keyword
     * search counts before it pages, since how the page is found depends on the count (`planPage`).
     */
    async search(criteria: CustomerCriteria, view: PageView): Promise<{ rows: Row[]; total: number }> {
      const fromSummary = summaryAnswers(criteria);
      let known = fromSummary ? undefined : cache.peek<KeywordTotal>(totalKey(criteria));
      if (!known && criteria.keyword) known = await countLive(criteria);
      let plan = planPage(criteria, view.sortBy, view, known?.value);
      if (plan === 'codeFilters' && !admitCodeFilterStatement(codeFilterKey(criteria, view))) plan = 'planner';
      const { rows, book } = await selectRowSets(
        db,
        {
          rows: pageRows(criteria, view, plan),
          book: rowsQuery<{ version: string; total: number | null }>(
            sql`select ${bookVersion(criteria)} as version, ${fromSummary ? summaryTotal(criteria) : sql`null::int`} as total`,
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
      const retryPlan = planPage(criteria, view.sortBy, view, fresh.value);
      const retried = await selectRows<Row>(db, pageRows(criteria, view, retryPlan), { prepare: retryPlan !== 'planner' });
      return { rows: retried, total: fresh.value.total };
    },

    async stat(criteria: CustomerCriteria): Promise<StatRow[]> {
      return cachedStat(criteria, () => computeStat(criteria));
    },
  };
}

export type CustomerSearch<Columns extends Selection> = ReturnType<typeof createCustomerSearch<Columns>>;
