import { describe, expect, expectTypeOf, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { customers } from './schema';
import {
  asText,
  columnName,
  columnNames,
  float8,
  insertTarget,
  outerJoined,
  selection,
  selectQuery,
  tableAlias,
  tableAs,
  type RowOf,
} from './sql-rows';

/**
 * The data-access style of ADR 0027: columns are named through the schema, so the compiler, not a
 * failing query, reports a renamed or removed column, and row types follow from the columns.
 * `npm run typecheck` checks the `@ts-expect-error` lines: each must stay an error.
 */
const c = tableAlias(customers, 'c');
const dialect = new PgDialect();
const render = (query: Parameters<PgDialect['sqlToQuery']>[0]) => dialect.sqlToQuery(query).sql;

describe('column references (ADR 0027)', () => {
  it('renders aliased columns, the FROM item and bare names for SET', () => {
    const summary = selection({ id: float8(c.id), nameCn: c.nameCn, openDate: asText(c.openDate) });
    expect(render(selectQuery(summary, sql`from ${tableAs(c)} where ${c.id} = ${1}`))).toBe(
      'select "c"."id"::float8 as "id",\n"c"."name_cn" as "nameCn",\n"c"."open_date"::text as "openDate" from "customer" "c" where "c"."id" = $1',
    );
    expect(render(sql`update ${tableAs(c)} set ${columnName(c.remark)} = ${'x'}`)).toBe('update "customer" "c" set "remark" = $1');
    expect(render(sql`insert into ${insertTarget(c)} (${columnNames(c.id, c.nameCn)}) values (${1}, ${'x'}) returning ${c.id}`)).toBe(
      'insert into "customer" as "c" ("id", "name_cn") values ($1, $2) returning "c"."id"',
    );
  });

  it('types rows from the columns: nullability from the schema, casts from their helper', () => {
    const summary = selection({
      id: float8(c.id),
      nameCn: c.nameCn,
      phone: c.phone,
      lastTradeDate: asText(c.lastTradeDate),
      totalAssetsHkd: c.totalAssetsHkd,
      nameEnOfAnOuterJoin: outerJoined(c.nameEn),
    });
    expect(render(summary)).toContain('"c"."phone" as "phone"');
    expectTypeOf<RowOf<typeof summary>>().toEqualTypeOf<{
      id: number;
      nameCn: string;
      phone: string | null;
      lastTradeDate: string | null;
      // numeric without a cast: the drivers hand back a string.
      totalAssetsHkd: string;
      nameEnOfAnOuterJoin: string | null;
    }>();
  });

  it('refuses what is not a column of the schema', () => {
    // Never run: these lines are here for the type check.
    const wrong = () => [
      // @ts-expect-error a column the schema does not have (e.g. after a rename) does not compile
      selection({ nameCn: c.nameChinese }),
      // @ts-expect-error a column's name as a string is not a column reference
      selection({ nameCn: 'name_cn' }),
    ];
    expect(wrong).toBeTypeOf('function');
    expect(() => tableAs(customers)).toThrow(/tableAlias/);
  });
});
