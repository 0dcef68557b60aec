import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../testing';
import type { DatabaseHandle } from './client';
import { SECURITIES } from './seed/reference-data';

/** Issue 22 §4: every security has a Hong Kong Traditional name, in the seed and (migration 0031) in databases seeded before. */
const MIGRATION = readFileSync(new URL('../../drizzle/0031_security_name_hk.sql', import.meta.url), 'utf8');
const [, fill] = MIGRATION.split('--> statement-breakpoint');
const SECURITY_NAMES_HK = Object.fromEntries(SECURITIES.map((security) => [security.symbol, security.nameHk]));

describe('Hong Kong Traditional security names (reference data)', () => {
  it('every seeded security has one, by hand and in Hong Kong usage', () => {
    for (const security of SECURITIES) expect(security.nameHk, security.symbol).toMatch(/\S/);
    expect(SECURITY_NAMES_HK['0005.HK']).toBe('滙豐控股');
    expect(SECURITY_NAMES_HK['0700.HK']).toBe('騰訊控股');
    expect(SECURITY_NAMES_HK['0001.HK']).toBe('長和');
  });

  it('the migration carries the same names as the seed', () => {
    const pairs = [...MIGRATION.matchAll(/\('([^']+)', '([^']+)'\)/g)].map(([, symbol, name]) => [symbol, name]);
    expect(Object.fromEntries(pairs)).toEqual(SECURITY_NAMES_HK);
  });
});

for (const engine of testDatabases()) {
  describe(`migration 0031 fills existing securities (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    beforeAll(async () => {
      database = await engine.create();
    });
    afterAll(async () => {
      await database?.drop();
    });

    it('names the securities it knows and leaves the others null (and a name set since alone)', async () => {
      await database.query(
        `insert into security (symbol, market, name_cn, name_en, currency, lot_size, last_price, prev_close, price_date, name_hk) values
           ('0005.HK', 'HK', '汇丰控股', 'HSBC Holdings', 'HKD', 400, 98.5, 98, '2026-11-20', null),
           ('0001.HK', 'HK', '长和', 'CK Hutchison', 'HKD', 500, 48.1, 48, '2026-11-20', '長江和記實業'),
           ('ZZZZ', 'US', '某公司', 'Some Co', 'USD', 1, 1, 1, '2026-11-20', null)`,
      );
      await database.query(fill!);
      const rows = await database.query<{ symbol: string; name_hk: string | null }>(`select symbol, name_hk from security order by symbol`);
      expect(rows).toEqual([
        { symbol: '0001.HK', name_hk: '長江和記實業' },
        { symbol: '0005.HK', name_hk: '滙豐控股' },
        { symbol: 'ZZZZ', name_hk: null },
      ]);
    });
  });
}
