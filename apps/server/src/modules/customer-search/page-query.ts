import { sql, type SQL } from 'drizzle-orm';
import { customerWhere, type CustomerCriteria } from './customer-filters';
import { c, customerC } from './customer-tables';
import { matchTierSql } from './match-tier';
import type { PagePlan, PageWindow, SortField, SortOrder } from './page-plan';

/** Orders that walk the staff-scoped sort indexes (staff_id, column, id) forwards or backwards. */
export function customerOrder(sortBy: SortField, sortOrder: SortOrder): SQL {
  const column = { totalAssets: c.totalAssetsHkd, openDate: c.openDate, lastTrade: c.lastTradeDate }[sortBy];
  if (sortBy === 'lastTrade')
    return sortOrder === 'desc' ? sql`${column} desc nulls last, ${c.id} asc` : sql`${column} asc nulls first, ${c.id} desc`;
  return sortOrder === 'desc' ? sql`${column} desc, ${c.id} asc` : sql`${column} asc, ${c.id} desc`;
}

/** A list's order: with a keyword, its tiers first (`matchTierSql`, ADR 0046 §5), then the sort. */
export function listOrder(criteria: CustomerCriteria, sortBy: SortField, sortOrder: SortOrder): SQL {
  const sorted = customerOrder(sortBy, sortOrder);
  return criteria.keyword ? sql`${matchTierSql(criteria.keyword, criteria.corpId)}, ${sorted}` : sorted;
}

/** The ids of one page, in order, read from indexes (see `customerWhere` and `PagePlan`). */
export function pageIds(
  criteria: CustomerCriteria,
  sortBy: SortField,
  sortOrder: SortOrder,
  page: PageWindow,
  plan: Exclude<PagePlan, 'empty'>,
): SQL {
  const window =
    plan === 'codeFilters'
      ? sql.raw(`limit ${Math.trunc(page.pageSize)} offset ${Math.trunc((page.pageNum - 1) * page.pageSize)}`)
      : sql`limit ${page.pageSize} offset ${(page.pageNum - 1) * page.pageSize}`;
  if (plan !== 'matchesFirst') {
    const where = customerWhere(criteria, false, plan === 'scan' ? 'filter' : 'index', plan === 'codeFilters');
    return sql`select ${c.id} from ${customerC} where ${where} order by ${listOrder(criteria, sortBy, sortOrder)} ${window}`;
  }
  // MATERIALIZED keeps the planner from walking a sort index under the LIMIT instead. The CTE is
  // named `c` too, so the page's order is written once, over the same column names; the tier is
  // computed inside it, where the customer's columns are.
  const tier = criteria.keyword ? matchTierSql(criteria.keyword, criteria.corpId) : sql`2`;
  return sql`with matches as materialized (
               select ${c.id}, ${c.totalAssetsHkd}, ${c.openDate}, ${c.lastTradeDate}, ${tier} as match_tier
                 from ${customerC} where ${customerWhere(criteria, false)})
             select ${c.id} from matches ${c} order by match_tier, ${customerOrder(sortBy, sortOrder)} ${window}`;
}
