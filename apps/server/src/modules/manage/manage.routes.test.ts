import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type CustomerListItem, type RequestOf, type searchCustomers, type statCustomers } from '@broker/contract';
import { testDatabases, startTestApp, signInAs, apiClient, type ApiClient, type RunningTestApp } from '../../testing';
import type { DatabaseHandle } from '../../db/client';
import { createClientFixture, KNOWN, type ClientFixture } from '../client/client.fixture';

type SearchInput = RequestOf<typeof searchCustomers>;
type StatInput = RequestOf<typeof statCustomers>;

/**
 * Every case runs twice per engine: answered from the books' in-memory indexes (the default, ADR 0035)
 * and by SQL alone (`SEARCH_INDEX_MAX_ROWS=0`, what a book too large for the budget gets).
 */
const searchPaths = [
  { path: 'memory', env: {} },
  { path: 'sql', env: { SEARCH_INDEX_MAX_ROWS: '0' } },
] as const;

for (const engine of testDatabases())
  for (const searchPath of searchPaths) {
    describe(`client list: search, filter, sort, stat, channels (${engine.kind}, ${searchPath.path})`, () => {
      let database: DatabaseHandle & { drop(): Promise<void> };
      let server: RunningTestApp;
      let api: ApiClient;
      let fixture: ClientFixture;
      let staffId: number;
      const statements: string[] = [];

      beforeAll(async () => {
        database = await engine.create({ onQuery: (text) => statements.push(text) });
        fixture = await createClientFixture(database);
        staffId = fixture.staffIds.chanwaiman!;
        server = await startTestApp(database, searchPath.env);
        api = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'chanwaiman', { agentCode: 'khgl' }));
      }, 120_000);
      afterAll(async () => {
        await server?.close();
        await database?.drop();
      });

      const search = (body: SearchInput) => api.ok.searchCustomers(body);
      const stat = (body: StatInput) => api.ok.statCustomers(body);
      /** Every row of a search, page by page. */
      const searchAll = async (body: SearchInput) => {
        const rows: CustomerListItem[] = [];
        for (let pageNum = 1; ; pageNum++) {
          const page = await search({ ...body, pageNum, pageSize: 50 });
          rows.push(...page.list);
          if (!page.hasMore) return rows;
        }
      };
      const count = async (where: string, params: unknown[] = []) =>
        Number(
          (
            await database.query<{ n: string }>(`select count(*) as n from customer c where c.staff_id = $1 and ${where}`, [
              staffId,
              ...params,
            ])
          )[0]!.n,
        );
      const ownerOf = async (ids: number[]) =>
        new Set(
          (await database.query<{ staff_id: number }>('select distinct staff_id from customer where id = any($1::bigint[])', [ids])).map(
            (row) => row.staff_id,
          ),
        );

      it('lists only the caller’s own clients, all of them, most assets first', async () => {
        const rows = await searchAll({});
        expect(rows.length).toBe(await count('true'));
        expect([...(await ownerOf(rows.map((row) => row.customerId)))]).toEqual([staffId]);
        const assets = rows.map((row) => row.totalAssetsHkd);
        expect(assets).toEqual([...assets].sort((a, b) => b - a));
        expect(rows.some((row) => row.customerId === fixture.foreignId)).toBe(false);
      });

      it('never returns a full phone number or identity document in a list', async () => {
        const rows = await searchAll({});
        const json = JSON.stringify(rows);
        const secrets = await database.query<{ phone: string | null; phone_digits: string | null; id_doc_last4: string }>(
          'select phone, phone_digits, id_doc_last4 from customer where staff_id = $1',
          [staffId],
        );
        for (const secret of secrets) {
          if (secret.phone) expect(json).not.toContain(secret.phone);
          if (secret.phone_digits) expect(json).not.toContain(secret.phone_digits);
        }
        expect(json).not.toMatch(/"phone(Digits)?"|idDocLast4/);
        for (const row of rows) {
          if (row.phoneMasked) expect(row.phoneMasked).toMatch(/\*\*\*\*$/);
          expect(row.idDocMasked).toMatch(/\*/);
        }
        const known = rows.find((row) => row.customerId === fixture.knownId)!;
        expect(known).toMatchObject({
          phoneMasked: '+852 4000 ****',
          idDocMasked: KNOWN.idDocMasked,
          accountNos: [KNOWN.accountNo],
          kycBound: true,
        });
      });

      describe('keyword', () => {
        it('with a filter, pages the keyword’s matches in the same order as the keyword alone does', async () => {
          // A keyword narrowed by its index plus a filter picks its page among the matches (a CTE);
          // the keyword alone walks the sort index. Both must list the same customers in the same order.
          const [common] = await database.query<{ fragment: string }>(
            `select lower(substr(name_en, 1, 3)) as fragment from customer where staff_id = $1 group by 1 order by count(*) desc, 1 limit 1`,
            [staffId],
          );
          const keyword = common!.fragment;
          for (const [sortBy, sortOrder] of [
            ['totalAssets', 'desc'],
            ['openDate', 'asc'],
            ['lastTrade', 'desc'],
          ] as const) {
            const filtered = await searchAll({ keyword, statuses: ['active'], sortBy, sortOrder });
            const alone = await searchAll({ keyword, sortBy, sortOrder });
            const expected = alone.filter((row) => row.status === 'active').map((row) => row.customerId);
            expect(expected.length, keyword).toBeGreaterThan(1);
            expect(
              filtered.map((row) => row.customerId),
              `${keyword} ${sortBy} ${sortOrder}`,
            ).toEqual(expected);
          }
        });

        it('finds the same pages however it finds them: through the keyword’s GIN indexes or testing each client', async () => {
          // Keywords from common to rare, and some too short for any GIN index.
          const fragments = await database.query<{ fragment: string; n: number }>(
            `select fragment, count(*)::int as n from (
             select lower(substr(name_en, p, 3)) as fragment from customer, generate_series(1, 6) p where staff_id = $1) f
           where fragment ~ '^[a-z]{3}$' group by 1 order by 2 desc, 1`,
            [staffId],
          );
          const picks = [fragments[0]!, fragments[Math.floor(fragments.length / 3)]!, fragments.at(-1)!].map((row) => row.fragment);
          const [digits] = await database.query<{ middle: string; long: string }>(
            `select substr(phone_digits, 5, 4) as middle, substr(phone_digits, 3, 8) as long from customer
            where staff_id = $1 and phone_digits is not null order by id limit 1`,
            [staffId],
          );
          const from = statements.length;
          for (const keyword of [...picks, 'wa', '陈', digits!.middle, digits!.long]) {
            const isDigits = /^\d+$/.test(keyword);
            for (const [sortBy, column] of [
              ['totalAssets', 'total_assets_hkd'],
              ['openDate', 'open_date'],
            ] as const) {
              const expected = await database.query<{ id: number }>(
                `select c.id::float8 as id from customer c
                where c.staff_id = $1 and (c.name_cn like $2 or c.name_en ilike $2 or ($3 and c.phone_digits like $2)
                   or c.id_doc_last4 = upper($4) or c.id in (select a.customer_id from account a where a.account_no = upper($4))
                   -- ADR 0046: the folded name, a romanised word's start, the customer number's digits.
                   or split_part(c.search_terms, ' ', 1) like $2 or ($5 and c.search_terms like '% ' || lower($4) || '%')
                   or ($3 and nullif(ltrim(substring(c.customer_no from '[0-9]+$'), '0'), '') = nullif(ltrim($4, '0'), '')))
                order by c.${column} desc, c.id asc`,
                [staffId, `%${keyword}%`, isDigits, keyword, /^[a-z]+$/i.test(keyword)],
              );
              const rows = await searchAll({ keyword, sortBy, sortOrder: 'desc' });
              expect(
                rows.map((row) => row.customerId),
                `${keyword} by ${sortBy}`,
              ).toEqual(expected.map((row) => row.id));
            }
          }
          const sent = statements.slice(from).join('\n');
          if (searchPath.path === 'memory') {
            // Found in memory, rows and all: SQL only reads the book's version (ADR 0035's addendum).
            expect(sent, 'the book version').toContain('"staff_book_version"');
            expect(sent, 'no rows read in SQL').not.toContain('"customer" "c"');
            expect(sent, 'no keyword test in SQL').not.toMatch(/"name_en"( \|\| '')?\)? ilike/);
          } else {
            expect(sent, 'a short keyword tested client by client').toContain(`("c"."name_en" || '') ilike`);
            expect(sent, 'a longer one found through the book’s grams').toContain('staff_word_trigrams(');
          }
        });

        const expectKnown = async (keyword: string, matchedOn: CustomerListItem['matchedOn']) => {
          const rows = await searchAll({ keyword });
          const known = rows.find((row) => row.customerId === fixture.knownId);
          expect(known, `keyword ${keyword}`).toBeDefined();
          expect(known!.matchedOn).toBe(matchedOn);
          expect([...(await ownerOf(rows.map((row) => row.customerId)))]).toEqual([staffId]);
          return rows;
        };

        it('matches part of the Chinese name', async () => {
          const rows = await expectKnown('甲乙', 'name');
          expect(rows.every((row) => row.nameCn.includes('甲乙'))).toBe(true);
        });

        it('matches part of the English name, ignoring case', async () => {
          const rows = await expectKnown('quintRELL', 'name');
          expect(rows.every((row) => row.nameEn.toLowerCase().includes('quintrell'))).toBe(true);
        });

        it('matches any run of phone digits, with or without spaces', async () => {
          await expectKnown('40007', 'phone');
          await expectKnown('4000 7531', 'phone');
          const [generated] = await database.query<{ id: string; phone_digits: string }>(
            'select id, phone_digits from customer where staff_id = $1 and phone_digits is not null and id <> $2 order by id limit 1',
            [staffId, fixture.knownId],
          );
          const middle = generated!.phone_digits.slice(4, 10);
          const rows = await searchAll({ keyword: middle });
          expect(rows.map((row) => row.customerId)).toContain(Number(generated!.id));
          expect(rows.length).toBe(await count(`c.phone_digits like $2`, [`%${middle}%`]));
        });

        it('matches an account number exactly', async () => {
          const rows = await expectKnown(KNOWN.accountNo.toLowerCase(), 'account');
          expect(rows).toHaveLength(1);
        });

        it('matches the last four characters of the identity document', async () => {
          await expectKnown(KNOWN.idDocLast4, 'idDoc');
        });

        it('finds a generated client by the Chinese name and leaves out other managers’ clients', async () => {
          const [other] = await database.query<{ name_cn: string }>('select name_cn from customer where id = $1', [fixture.foreignId]);
          const rows = await searchAll({ keyword: other!.name_cn });
          expect(rows.map((row) => row.customerId)).not.toContain(fixture.foreignId);
          expect(rows.length).toBe(await count('c.name_cn like $2', [`%${other!.name_cn}%`]));
        });

        it('takes LIKE wildcards literally and finds nothing for nonsense', async () => {
          expect((await search({ keyword: '%' })).total).toBe(0);
          expect((await search({ keyword: '_' })).total).toBe(0);
          expect((await search({ keyword: 'zzzqqqxxx' })).total).toBe(0);
        });
      });

      describe('filters', () => {
        it('status and channel', async () => {
          const dormant = await searchAll({ statuses: ['dormant'] });
          expect(dormant.length).toBe(await count(`c.status = 'dormant'`));
          expect(dormant.length).toBeGreaterThan(0);
          expect(dormant.every((row) => row.status === 'dormant')).toBe(true);
          const branch = await search({ channels: ['branch'], pageSize: 1 });
          expect(branch.total).toBe(await count(`c.channel = 'branch'`));
          expect((await search({ channels: ['nowhere'] })).total).toBe(0);
        });

        it('asset range in the chosen currency is converted to HKD with the rate', async () => {
          // USD rate 0.125: 100,000 USD is 800,000 HKD.
          const usd = await searchAll({ ccy: 'USD', assetMin: 10_000, assetMax: 100_000 });
          expect(usd.length).toBe(await count('c.total_assets_hkd between 80000 and 800000'));
          expect(usd.every((row) => row.totalAssetsHkd >= 80_000 && row.totalAssetsHkd <= 800_000)).toBe(true);
          // The known client's exact total, as bounds in HKD and in USD.
          const exactHkd = await searchAll({ assetMin: KNOWN.totalAssetsHkd, assetMax: KNOWN.totalAssetsHkd });
          expect(exactHkd.map((row) => row.customerId)).toContain(fixture.knownId);
          const exactUsd = await searchAll({ ccy: 'USD', assetMin: KNOWN.totalAssetsHkd * 0.125, assetMax: KNOWN.totalAssetsHkd * 0.125 });
          expect(exactUsd.map((row) => row.customerId)).toContain(fixture.knownId);
        });

        it('open-date range, inclusive', async () => {
          const rows = await searchAll({ openDateFrom: '2026-09-01', openDateTo: '2026-09-01' });
          expect(rows.map((row) => row.customerId)).toContain(fixture.knownId);
          expect(rows.every((row) => row.openDate === '2026-09-01')).toBe(true);
          const year = await search({ openDateFrom: '2025-01-01', openDateTo: '2025-12-31', pageSize: 1 });
          expect(year.total).toBe(await count(`c.open_date between '2025-01-01' and '2025-12-31'`));
        });

        it('KYC bound or not', async () => {
          const bound = await searchAll({ kycBound: true });
          expect(bound.map((row) => row.customerId)).toContain(fixture.knownId);
          expect(bound.every((row) => row.kycBound)).toBe(true);
          const unbound = await search({ kycBound: false, pageSize: 1 });
          expect(unbound.total + bound.length).toBe(await count('true'));
        });

        it('markets held and has holdings', async () => {
          const sh = await search({ markets: ['SH'], pageSize: 1 });
          expect(sh.total).toBe(
            await count(
              `exists (select 1 from holding h join security s on s.id = h.security_id where h.customer_id = c.id and h.quantity > 0 and s.market = 'SH')`,
            ),
          );
          expect((await searchAll({ markets: ['SH'], keyword: KNOWN.nameCn })).map((row) => row.customerId)).toEqual([fixture.knownId]);
          const holding = await search({ hasHolding: true, pageSize: 1 });
          const none = await searchAll({ hasHolding: false });
          expect(holding.total + none.length).toBe(await count('true'));
          expect(none.map((row) => row.customerId)).not.toContain(fixture.knownId);
        });

        it('combines filters with AND', async () => {
          const rows = await searchAll({ statuses: ['active'], hasHolding: true, assetMin: 100_000 });
          expect(rows.length).toBe(
            await count(
              `c.status = 'active' and c.total_assets_hkd >= 100000 and exists (select 1 from holding h where h.customer_id = c.id and h.quantity > 0)`,
            ),
          );
        });
      });

      describe('sort and paging', () => {
        it('sorts by each field both ways', async () => {
          const keys: [NonNullable<SearchInput['sortBy']>, (row: CustomerListItem) => number | string][] = [
            ['totalAssets', (row) => row.totalAssetsHkd],
            ['openDate', (row) => row.openDate],
            ['lastTrade', (row) => row.lastTradeDate ?? ''],
          ];
          for (const [sortBy, pick] of keys) {
            const desc = (await searchAll({ sortBy, sortOrder: 'desc' })).map((row) => pick(row));
            const asc = (await searchAll({ sortBy, sortOrder: 'asc' })).map((row) => pick(row));
            const ordered = [...desc].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
            expect(desc, `${sortBy} desc`).toEqual(ordered);
            expect(asc, `${sortBy} asc`).toEqual([...ordered].reverse());
          }
        });

        it('puts clients who never traded last when sorting by last trade, newest first', async () => {
          const rows = await searchAll({ sortBy: 'lastTrade', sortOrder: 'desc' });
          const firstNull = rows.findIndex((row) => row.lastTradeDate === null);
          if (firstNull >= 0) expect(rows.slice(firstNull).every((row) => row.lastTradeDate === null)).toBe(true);
        });

        it('pages without overlap or gaps', async () => {
          const total = await count('true');
          const first = await search({ pageSize: 7, pageNum: 1 });
          const second = await search({ pageSize: 7, pageNum: 2 });
          expect(first).toMatchObject({ total, pageNum: 1, pageSize: 7, hasMore: true });
          const firstIds = first.list.map((row) => row.customerId);
          expect(second.list.some((row) => firstIds.includes(row.customerId))).toBe(false);
          const both = await search({ pageSize: 14, pageNum: 1 });
          expect(both.list.map((row) => row.customerId)).toEqual([...firstIds, ...second.list.map((row) => row.customerId)]);
          const last = await search({ pageSize: 50, pageNum: Math.ceil(total / 50) });
          expect(last.hasMore).toBe(false);
          expect(last.list).toHaveLength(total - (Math.ceil(total / 50) - 1) * 50);
        });
      });

      describe('stat', () => {
        it('matches the list for the same filters', async () => {
          const filterSets: StatInput[] = [
            {},
            { statuses: ['active'] },
            { keyword: '陈' },
            { ccy: 'USD', assetMin: 5_000 },
            { markets: ['US', 'HK'], kycBound: false },
            { kycBound: false, statuses: ['active'] },
            { hasHolding: true, channels: ['online', 'branch'] },
            { markets: ['HK'] },
          ];
          for (const filters of filterSets) {
            const rows = await searchAll(filters);
            const result = await stat(filters);
            expect(result.clients, JSON.stringify(filters)).toBe(rows.length);
            expect(result.active).toBe(rows.filter((row) => row.status === 'active').length);
            expect(result.totalAssetsHkd).toBeCloseTo(
              rows.reduce((sum, row) => sum + row.totalAssetsHkd, 0),
              2,
            );
            expect(result.byChannel.reduce((sum, channel) => sum + channel.clients, 0)).toBe(result.clients);
            expect(result.byChannel.reduce((sum, channel) => sum + channel.totalAssetsHkd, 0)).toBeCloseTo(result.totalAssetsHkd, 2);
          }
        });

        it('totals equal the database, and counts clients opened this month', async () => {
          const result = await stat({});
          const [sums] = await database.query<{ total: string; fresh: string }>(
            `select sum(total_assets_hkd)::text as total,
                  count(*) filter (where open_date >= date_trunc('month', now() at time zone 'Asia/Hong_Kong')::date) as fresh
           from customer where staff_id = $1`,
            [staffId],
          );
          expect(result.totalAssetsHkd).toBe(Number(sums!.total));
          expect(result.newThisMonth).toBe(Number(sums!.fresh));
          expect(result.active).toBe(await count(`c.status = 'active'`));
        });
      });

      it('getChannel: the caller’s channels with client counts', async () => {
        const channels = await api.ok.getChannel();
        expect(channels.length).toBeGreaterThan(0);
        expect(channels.reduce((sum, channel) => sum + channel.clients, 0)).toBe(await count('true'));
        for (const channel of channels) expect(channel.clients).toBe(await count('c.channel = $2', [channel.channel]));
      });

      it('another manager sees a different book', async () => {
        const other = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'leekaying', { agentCode: 'khgl' }));
        expect((await other.ok.searchCustomers({ keyword: KNOWN.nameCn })).total).toBe(0);
      });

      it('rejects bad filters, naming the field', async () => {
        const cases: [Record<string, unknown>, RegExp][] = [
          [{ pageSize: 500 }, /body\.pageSize: must be at most 50/],
          [{ pageNum: 0 }, /body\.pageNum: must be at least 1/],
          [{ statuses: ['gone'] }, /body\.statuses\.0: must be one of active, dormant, closed/],
          [{ sortBy: 'name' }, /body\.sortBy: must be one of totalAssets, openDate, lastTrade/],
          [{ ccy: 'EUR' }, /body\.ccy: must be one of HKD, USD, CNY/],
          [{ assetMin: 10, assetMax: 5 }, /body\.assetMin: must not be more than assetMax/],
          [{ assetMin: -1 }, /body\.assetMin: must be at least 0/],
          [{ openDateFrom: '2026-02-30x' }, /body\.openDateFrom: must be a date/],
          [{ openDateFrom: '2026-03-01', openDateTo: '2026-02-01' }, /body\.openDateFrom: must not be after openDateTo/],
          [{ keyword: 'k'.repeat(51) }, /body\.keyword: must be at most 50 characters/],
          [{ markets: ['LSE'] }, /body\.markets\.0: must be one of HK, US, SH, SZ/],
          [{ kycBound: 'yes' }, /body\.kycBound: must be a boolean/],
        ];
        for (const [body, message] of cases) {
          const result = await api.call('searchCustomers', body);
          expect(result.status, JSON.stringify(body)).toBe(400);
          expect(result.body.code).toBe(ErrorCode.VALIDATION);
          expect(result.body.msg).toMatch(message);
        }
        const statResult = await api.call('statCustomers', { pageSize: 10 });
        expect(statResult.body.msg).toMatch(/unknown field "pageSize"/);
      });
    });
  }
