import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomerListItem } from '@broker/contract';
import { testDatabases, startTestApp, signInAs, apiClient, seededStaff, type ApiClient, type RunningTestApp } from '../../testing';
import type { DatabaseHandle } from '../../db/client';
import { seedDemoData } from '../../db/seed';
import { fillAllSearchTerms, searchTerms } from '../../db/search-terms';

/**
 * Search finds the client however the manager types it (issue 22, ADR 0046): the customer number in
 * any form, the name in either script, its Hong Kong Cantonese or pinyin romanisation, initials.
 * Through real HTTP, on both engines, answered from the book's index and by SQL alone.
 */
const searchPaths = [
  { path: 'memory', env: {} },
  { path: 'sql', env: { SEARCH_INDEX_MAX_ROWS: '0' } },
] as const;

/** Clients whose English names share nothing with their romanisations, so only the new forms can find them. */
const CLIENTS = [
  { customerNo: 'C00070001', nameCn: '黃志明', nameEn: 'Alpha Person' },
  { customerNo: 'C00070002', nameCn: '张伟明', nameEn: 'Beta Person' },
  { customerNo: 'C00070003', nameCn: '曾子健', nameEn: 'Gamma Person' },
  { customerNo: 'C00070004', nameCn: '歐陽美玲', nameEn: 'Delta Person' },
  { customerNo: 'C00070005', nameCn: '陳偉文', nameEn: 'Epsilon Person' },
] as const;

for (const engine of testDatabases())
  for (const searchPath of searchPaths) {
    describe(`client list: the forms a manager types (${engine.kind}, ${searchPath.path})`, () => {
      let database: DatabaseHandle & { drop(): Promise<void> };
      let server: RunningTestApp;
      let api: ApiClient;
      const ids = new Map<string, number>();

      beforeAll(async () => {
        database = await engine.create();
        await seedDemoData(database, { customers: 200, seed: 22, asOf: '2026-11-20' });
        const { corpId, staffIds } = await seededStaff(database);
        for (const client of CLIENTS) {
          const [row] = await database.query<{ id: string }>(
            `insert into customer (corp_id, staff_id, customer_no, channel, name_cn, name_en, id_doc_type, id_doc_masked, id_doc_last4,
                                   risk_level, status, open_date)
             values ($1, $2, $3, 'branch', $4, $5, 'hkid', 'Z1**0000', 'Q9Q9', 3, 'active', '2026-01-02') returning id`,
            [corpId, staffIds.chanwaiman, client.customerNo, client.nameCn, client.nameEn],
          );
          ids.set(client.nameCn, Number(row!.id));
        }
        // Inserted by SQL, as a migrated database's rows are: the fill gives them their terms.
        await fillAllSearchTerms(database);
        server = await startTestApp(database, searchPath.env);
        api = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'chanwaiman', { agentCode: 'khgl' }));
      }, 120_000);
      afterAll(async () => {
        await server?.close();
        await database?.drop();
      });

      const searchAll = async (keyword: string) => {
        const rows: CustomerListItem[] = [];
        for (let pageNum = 1; ; pageNum++) {
          const page = await api.ok.searchCustomers({ keyword, pageNum, pageSize: 50 });
          rows.push(...page.list);
          if (!page.hasMore) return rows;
        }
      };
      /** The client named `nameCn` is among the matches of `keyword`, found through `matchedOn`. */
      const expectFound = async (keyword: string, nameCn: string, matchedOn: CustomerListItem['matchedOn']) => {
        const rows = await searchAll(keyword);
        const found = rows.find((row) => row.customerId === ids.get(nameCn));
        expect(found, `${keyword} finds ${nameCn}`).toBeDefined();
        expect(found!.matchedOn, keyword).toBe(matchedOn);
        return rows;
      };

      it('seed and fill write the shared terms for every client', async () => {
        const rows = await database.query<{ name_cn: string; search_terms: string | null }>('select name_cn, search_terms from customer');
        expect(rows.length).toBeGreaterThan(200);
        for (const row of rows) expect(row.search_terms, row.name_cn).toBe(searchTerms(row.name_cn));
      });

      it('finds the customer number in full, in any case, by its digits with or without the zeros', async () => {
        for (const keyword of ['C00070001', 'c00070001', '00070001', '70001', 'c70001', 'C-70001']) {
          const rows = await expectFound(keyword, '黃志明', 'customerNo');
          // The number's own digits only: not C00070010 nor C00170001.
          expect(rows.filter((row) => row.matchedOn === 'customerNo').map((row) => row.customerNo)).toEqual(['C00070001']);
        }
        expect((await searchAll('X70001')).map((row) => row.customerNo)).not.toContain('C00070001');
      });

      it('finds Traditional from Simplified and Simplified from Traditional, whole names and single characters', async () => {
        await expectFound('黄志明', '黃志明', 'name');
        await expectFound('黄', '黃志明', 'name');
        await expectFound('張偉明', '张伟明', 'name');
        await expectFound('偉', '张伟明', 'name');
        await expectFound('陈伟文', '陳偉文', 'name');
      });

      it('finds the Cantonese romanisation as Hong Kong writes it, each word a prefix, in either order', async () => {
        await expectFound('WONG', '黃志明', 'name');
        await expectFound('wong chi ming', '黃志明', 'name');
        await expectFound('Chi-Ming Wong', '黃志明', 'name');
        await expectFound('chiming', '黃志明', 'name');
        await expectFound('won ch', '黃志明', 'name');
        await expectFound('cheung wai', '张伟明', 'name');
        await expectFound('tsang', '曾子健', 'name');
        await expectFound('tsz kin', '曾子健', 'name');
        await expectFound('au yeung', '歐陽美玲', 'name');
        await expectFound('auyeung mei ling', '歐陽美玲', 'name');
      });

      it('finds the pinyin, the surname read as a surname', async () => {
        await expectFound('huang', '黃志明', 'name');
        await expectFound('huang zhiming', '黃志明', 'name');
        await expectFound('zhang weiming', '张伟明', 'name');
        await expectFound('zeng zijian', '曾子健', 'name');
        await expectFound('ouyang', '歐陽美玲', 'name');
        expect((await searchAll('ceng')).map((row) => row.customerId)).not.toContain(ids.get('曾子健'));
      });

      it('finds initials', async () => {
        await expectFound('wcm', '黃志明', 'name');
        await expectFound('cmw', '黃志明', 'name');
        await expectFound('cww', '陳偉文', 'name');
        await expectFound('hzm', '黃志明', 'name');
      });

      it('finds a client renamed by SQL once the fill has computed the new name’s terms', async () => {
        await database.query(`update customer set name_cn = '何家輝' where customer_no = 'C00070005'`);
        const [row] = await database.query<{ search_terms: string | null }>(
          `select search_terms from customer where customer_no = 'C00070005'`,
        );
        expect(row!.search_terms).toBeNull();
        expect((await searchAll('chan wai man')).map((found) => found.customerNo)).not.toContain('C00070005');
        await fillAllSearchTerms(database);
        const rows = await searchAll('ho ka fai');
        expect(rows.map((found) => found.customerNo)).toContain('C00070005');
        expect((await searchAll('chan wai man')).map((found) => found.customerNo)).not.toContain('C00070005');
      });

      it('leaves out other managers’ clients', async () => {
        const [other] = await database.query<{ name_cn: string }>(
          `select c.name_cn from customer c join staff s on s.id = c.staff_id where s.wecom_user_id <> 'chanwaiman' order by c.id limit 1`,
        );
        const rows = await searchAll(searchTerms(other!.name_cn).split(' ')[1]!);
        const owners = await database.query<{ wecom_user_id: string }>(
          'select distinct s.wecom_user_id from customer c join staff s on s.id = c.staff_id where c.id = any($1::bigint[])',
          [rows.map((row) => row.customerId)],
        );
        expect(owners.map((owner) => owner.wecom_user_id)).toEqual(rows.length ? ['chanwaiman'] : []);
      });
    });
  }
