import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, TIMELINE_KINDS, timelineCursorText } from '@broker/contract';
import { DEMO_EXTERNAL_CONTACTS } from './seed/reference-data';
import { testDatabases, startTestApp, signInAs, apiClient, type ApiClient, type RunningTestApp } from '../testing';
import type { DatabaseHandle } from './client';
import { ensureMonthPartitions } from './partitions';
import { untilIndexesUsable } from './seed/bulk-loader';
import { seedDemoData } from './seed';
import { runMotRules } from '../modules/mot';
import { hongKongDay, addDays, addMonths } from '@broker/domain';

/**
 * Every read endpoint, called through the app on a seeded database: each statement it runs is
 * EXPLAINed with sequential scans discouraged (`enable_seqscan = off`, so a small table's cheap
 * seq scan cannot hide a missing index), and no plan may still read one of the big tables whole.
 * On a million customers a seq scan of any of them is hundreds of milliseconds per request.
 */
const BIG_TABLES = new Set([
  'customer',
  'trade',
  'money_movement',
  'stock_transfer',
  'holding',
  'account',
  'staff_book_change',
  'contact_record',
  'contact_record_event',
  'audit_log',
]);

type EndpointName = keyof typeof endpoints;

const TODAY = hongKongDay();

interface Context {
  customerId: number;
  eventId: number;
  accountNo: string;
  idLast4: string;
  /** A seeded contact record of a client of chanwaiman, and that client. */
  recordId: number;
  contactCustomerId: number;
}
type Input = Record<string, unknown>;
/** The requests to try for an endpoint: each filter and sort on its own, plus the defaults. */
type Samples = (context: Context) => Input[];

const market = ['HK', 'US', 'SH', 'SZ'] as const;
const searchSamples: Samples = (context) => [
  {},
  { pageNum: 200 },
  { keyword: '陈' },
  { keyword: '嘉欣' },
  { keyword: '陈嘉欣' },
  { keyword: 'wong' },
  { keyword: 'Chan Tai' },
  { keyword: 'Quokka' },
  { keyword: '9123' },
  { keyword: '91234567' },
  { keyword: context.accountNo },
  { keyword: context.idLast4 },
  // The forms of ADR 0046: the other script, romanisations, initials, a customer number in any form.
  { keyword: '黃' },
  { keyword: '陳嘉欣' },
  { keyword: 'huang' },
  { keyword: 'wong chi' },
  { keyword: 'cww' },
  { keyword: 'ka' },
  { keyword: 'c00000123' },
  { keyword: '123' },
  { channels: ['online'] },
  { statuses: ['dormant', 'closed'] },
  { statuses: ['closed'] },
  { statuses: ['closed'], sortBy: 'lastTrade' },
  { statuses: ['closed'], sortBy: 'openDate', sortOrder: 'asc' },
  { assetMin: 1_000_000 },
  { assetMin: 10_000, assetMax: 50_000, ccy: 'USD' },
  { openDateFrom: '2025-01-01', openDateTo: '2025-06-30' },
  { kycBound: true },
  { kycBound: false },
  ...market.map((code) => ({ markets: [code] })),
  { markets: ['SZ'], sortBy: 'totalAssets' },
  { hasHolding: true },
  { hasHolding: false, sortBy: 'lastTrade' },
  { sortBy: 'openDate', sortOrder: 'asc' },
  { sortBy: 'lastTrade', sortOrder: 'desc' },
  { sortBy: 'lastTrade', sortOrder: 'asc' },
  { channels: ['branch'], statuses: ['active'], assetMin: 100_000, markets: ['HK'], kycBound: false, sortBy: 'lastTrade' },
  // Contradictory: answered by the summary's one-time filter (see the test of that below).
  { markets: ['HK'], hasHolding: false, assetMin: 1_000, sortBy: 'openDate' },
];
const statSamples: Samples = () => [
  {},
  { channels: ['online', 'branch'] },
  { statuses: ['active'] },
  { keyword: '陈' },
  { keyword: '嘉欣' },
  { assetMin: 1_000_000 },
  { openDateFrom: '2025-01-01' },
  { kycBound: false },
  { markets: ['US'] },
  { hasHolding: false },
  { markets: ['HK'], hasHolding: false, openDateFrom: '2020-01-01' },
];
const byCustomer: Samples = (context) => [{ customerId: context.customerId }];
const historyOf: Samples = (context) => [
  { customerId: context.customerId },
  { customerId: context.customerId, pageNum: 3 },
  { customerId: context.customerId, dateFrom: '2025-01-01', dateTo: '2025-12-31' },
];

const checked: Partial<Record<EndpointName, Samples>> = {
  getJsSdkSign: () => [{ url: 'http://127.0.0.1/client/1' }],
  getDefaultCcy: () => [{}],
  getCurrencyExchangeRate: () => [{}],
  isFold: () => [{}],
  kycSearch: (context) => [
    { keyword: '陈' },
    { keyword: '91234' },
    { keyword: context.accountNo },
    { keyword: '陳嘉' },
    { keyword: 'wong' },
    { keyword: 'c123' },
  ],
  hasKyc: () => [{ externalUserId: DEMO_EXTERNAL_CONTACTS[0]!.externalUserId }],
  getProfile: byCustomer,
  getBaseInfo: byCustomer,
  // Tapped on every row's sheet and event card: the customer by primary key, its binding by the customer's unique key.
  getReach: byCustomer,
  getDynamic: (context) => [{ customerId: context.customerId }, { customerId: context.customerId, before: Date.parse('2026-01-01') }],
  getTimeline: (context) => [
    { customerId: context.customerId },
    { customerId: context.customerId, kinds: [...TIMELINE_KINDS], limit: 50 },
    {
      customerId: context.customerId,
      kinds: ['trade', 'kyc'],
      cursor: timelineCursorText({ atMicros: Date.parse('2026-01-01') * 1000, rank: 3, id: 1_000_000 }),
    },
  ],
  getAsset: byCustomer,
  getHolding: (context) => [{ customerId: context.customerId }, { customerId: context.customerId, market: 'US' }],
  getTrade: (context) => [
    ...historyOf(context),
    { customerId: context.customerId, market: 'HK', side: 'buy', status: 'settled' },
    { customerId: context.customerId, status: 'unsettled' },
  ],
  getWithdrawalDeposit: (context) => [...historyOf(context), { customerId: context.customerId, direction: 'deposit', currency: 'USD' }],
  getTransfer: (context) => [...historyOf(context), { customerId: context.customerId, market: 'HK', direction: 'in' }],
  getChannel: () => [{}],
  searchCustomers: searchSamples,
  statCustomers: statSamples,
  getTodoDates: () => [{}, { dateFrom: addDays(TODAY, -30), dateTo: addDays(TODAY, 30) }],
  getTodoClients: () => [{}, { date: TODAY, rule: 'birthday' }, { date: TODAY, pageNum: 3 }],
  getTodoTaskCount: () => [{}, { date: TODAY }],
  getTodoTaskDetail: (context) => [{ eventId: context.eventId }],
  getMinCashIO: () => [{}],
  getMotPushSetting: () => [{}],
  searchServiceHistory: () => [{}, { keyword: '陈' }, { rule: 'birthday', channel: 'phone', dateFrom: addDays(TODAY, -30), dateTo: TODAY }],
  getClientHistory: (context) => [{ customerId: context.customerId }],
  getRankedToday: () => [{}, { rule: 'birthday' }, { pageNum: 3 }],
  getEventRank: (context) => [{ eventId: context.eventId }],
  getMyAuditTrail: () => [{}, { entity: 'customer' }, { entity: 'contact_record' }, { cursor: 1_000_000 }],
  // The list page's pinned and recent clients and saved filters (issue 22): the caller's rows, joined to customers by primary key.
  getShortcuts: () => [{}],
  getContactRecord: (context) => [{ recordId: context.recordId }],
  listContactRecords: (context) => [
    { customerId: context.contactCustomerId },
    { customerId: context.contactCustomerId, channel: 'phone' },
    { customerId: context.contactCustomerId, cursor: String(context.recordId), limit: 5 },
  ],
};

/** Not checked here, and why: each writes, and none is on the path of a screen being read. */
const excluded: Partial<Record<EndpointName, string>> = {
  // It passed only while it was the first call of its app's client, whose sign-in check read the session.
  getCorpConfig: 'reads no table: the corps are configuration, held in memory',
  loginQywx: 'sign-in: once per session; reads staff and sessions only (and needs a fresh WeCom code)',
  configureDefaultCcy: 'writes one staff row by primary key',
  kycBind: 'write: one customer by primary key, one binding',
  kycUnbind: 'write: one binding by its unique key',
  updateProfile: 'write: one customer by primary key (plus an audit row)',
  revealPhone: 'write: reads one customer by primary key, inserts one audit row',
  markEventsSeen: 'write: events by primary key',
  handleEvent: "write: one event by primary key, one contact record (the contact log's write)",
  addContactRecord: 'write: events by primary key, one contact record, one follow-up event by its unique key, audit rows',
  reviseContactRecord: 'write: one record by primary key (plus a new version, the follow-up by its unique key, an audit row)',
  exportContactRecords:
    "write (an audit row) after reading one client's records by contact_record_customer_time_idx: a compliance request, not a screen",
  setMinCashIO: 'write: re-runs the money rules for one book (a batch, measured with the MOT sweep, not a read path)',
  setFold: 'write: one staff row by primary key',
  snoozeEvent: 'write: one event by primary key, one snooze row, one audit row',
  setMotPushSetting: "write: one staff row by primary key, the member's pending card by mot_push_one_pending_uq, an audit row",
  startSignIn: 'sign-in: once per session; deletes expired sign-ins by their expiry index, inserts one row',
  resumeSession: 'once per page load at most; one session by its token index, one staff row by primary key, two limit counters',
  signOut: 'write: sessions of one browser by the binding index (or one by primary key)',
  signOutEverywhere: "write: one staff member's sessions by the staff index",
  setClientPin: 'write: one customer by primary key (its book checked), one pin row by its key',
  recordClientOpened: "write: one customer by primary key (its book checked), the member's recent rows by the staff index",
  forgetRecentSearches: "write: the member's recent searches by the staff index",
  saveFilter: "write: the member's saved filters by the staff index, one row",
  deleteSavedFilter: 'write: one saved filter by its key',
};

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  Filter?: string;
  Plans?: PlanNode[];
}
/** Index entries a plan's index scans returned, over all their loops (EXPLAIN ANALYZE). */
const indexRowsRead = (node: PlanNode): number =>
  (/Index/.test(node['Node Type']) ? (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1) : 0) +
  (node.Plans ?? []).reduce((sum, child) => sum + indexRowsRead(child), 0);

/**
 * Book-gram functions (migrations 0015, 0016) run on each row a node filters: SQL functions of
 * ~35 µs a call, which belong in an index condition, evaluated once for the keyword (round six:
 * 5 ms of a 6 ms phone page when a keyword arm was written `grams and LIKE` inside the OR).
 */
const GRAM_FUNCTION_OF_A_ROW = /staff_(digit_trigrams|cjk_bigrams|word_trigrams)\((c\.)?staff_id/;
const gramFunctionsPerRow = (node: PlanNode): string[] => [
  ...(node.Filter && GRAM_FUNCTION_OF_A_ROW.test(node.Filter) ? [`${node['Node Type']} filter ${node.Filter}`] : []),
  ...(node.Plans ?? []).flatMap(gramFunctionsPerRow),
];

/** A month's partition (`trade_p2026_01`, `trade_default`; migrations 0034, 0035) stands for its table. */
const MONTH_PARTITION = /^(.*)_(p\d{4}_\d{2}|default)$/;
const tableOf = (relation: string) => {
  const parent = MONTH_PARTITION.exec(relation)?.[1];
  return parent && BIG_TABLES.has(parent) ? parent : relation;
};
/** The partitions of `table` a plan reads: those its pruning kept. */
const partitionsRead = (node: PlanNode, table: string): string[] => [
  ...(node['Relation Name'] && node['Relation Name'] !== table && tableOf(node['Relation Name']) === table ? [node['Relation Name']] : []),
  ...(node.Plans ?? []).flatMap((child) => partitionsRead(child, table)),
];

/** Of an EXPLAIN ANALYZE, a node never run (a month's partition pruned at run time) reads nothing. */
const seqScansOnBigTables = (node: PlanNode): string[] => [
  ...(node['Node Type'] === 'Seq Scan' &&
  node['Actual Loops'] !== 0 &&
  node['Relation Name'] &&
  BIG_TABLES.has(tableOf(node['Relation Name']))
    ? [node['Relation Name']]
    : []),
  ...(node.Plans ?? []).flatMap(seqScansOnBigTables),
];

describe('query-plan coverage', () => {
  it('classifies every endpoint of the contract as checked or excluded with a reason', () => {
    const classified = [...Object.keys(checked), ...Object.keys(excluded)].sort();
    expect(classified).toEqual(Object.keys(endpoints).sort());
    expect(Object.keys(checked).filter((name) => name in excluded)).toEqual([]);
  });
});

for (const engine of testDatabases()) {
  describe(`query plans of the read endpoints (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let server: RunningTestApp;
    /** The same app searching every book in SQL (`SEARCH_INDEX_MAX_ROWS=0`): the path a book too large for memory takes (ADR 0035). */
    let sqlServer: RunningTestApp;
    let context: Context;
    let captured: { text: string; params: readonly unknown[]; prepared: boolean }[] | null = null;
    const clientsByAgent = new Map<string, ApiClient>();
    type SearchPath = 'memory' | 'sql';

    beforeAll(async () => {
      database = await engine.create({
        onQuery: (text, params, prepared) => captured?.push({ text, params: [...params], prepared: prepared === true }),
      });
      await seedDemoData(database, { customers: 3000, seed: 5, asOf: TODAY });
      await runMotRules(database, { asOf: TODAY });
      // The seed writes no audit rows: two years of them, each client's profile edited and a WeCom contact bound
      // every month by its manager, spread over the months of audit_log's partitions (migration 0035).
      await database.query(
        `insert into audit_log (corp_id, actor_staff_id, action, entity, entity_id, before, after, at)
         select c.corp_id, c.staff_id, kind.action, kind.entity, case when kind.entity = 'customer' then c.id::text else 'wm' || c.id || '-' || n end,
                case when kind.entity = 'customer' then jsonb_build_object('email', 'old' || n || '@example.com') end,
                case when kind.entity = 'customer' then jsonb_build_object('email', 'new' || n || '@example.com')
                     else jsonb_build_object('customerId', c.id::text) end,
                ($1::date - make_interval(months => n))::timestamp at time zone 'Asia/Hong_Kong' + interval '9 hours' + (c.id % 480) * interval '1 minute'
           from customer c cross join generate_series(0, 23) as n
                cross join (values ('customer.update', 'customer'), ('kyc.bind', 'kyc_binding')) as kind(action, entity)`,
        [TODAY],
      );
      await ensureMonthPartitions(database);
      // Statistics as a real database has them: the planner's choices depend on them.
      await database.query('analyze');
      // The seed waited for the indexes it rebuilt; a transaction running longer elsewhere in the cluster would still hide
      // them from the plans below (indcheckxmin), and the guard would then name a sequential scan that is not ours.
      expect(await untilIndexesUsable(database, 60_000), 'indexes the planner may not use yet').toEqual([]);
      server = await startTestApp(database);
      sqlServer = await startTestApp(database, { SEARCH_INDEX_MAX_ROWS: '0' });
      const [customer] = await database.query<{ id: number; accountNo: string; idLast4: string }>(
        `select c.id::float8 as id, a.account_no as "accountNo", c.id_doc_last4 as "idLast4"
           from customer c join staff s on s.id = c.staff_id join account a on a.customer_id = c.id
          where s.wecom_user_id = 'chanwaiman' and c.last_trade_date is not null order by c.id limit 1`,
      );
      const [event] = await database.query<{ id: number }>(
        `select e.id::float8 as id from mot_event e join staff s on s.id = e.staff_id where s.wecom_user_id = 'chanwaiman' order by e.id limit 1`,
      );
      const [record] = await database.query<{ id: number; customerId: number }>(
        `select r.id::float8 as id, r.customer_id::float8 as "customerId" from contact_record r join customer c on c.id = r.customer_id
           join staff s on s.id = c.staff_id where s.wecom_user_id = 'chanwaiman' order by r.id limit 1`,
      );
      context = {
        customerId: customer!.id,
        accountNo: customer!.accountNo,
        idLast4: customer!.idLast4,
        eventId: event!.id,
        recordId: record!.id,
        contactCustomerId: record!.customerId,
      };
    }, 300_000);
    afterAll(async () => {
      await server?.close();
      await sqlServer?.close();
      await database?.drop();
    });

    async function call(name: EndpointName, input: Input, path: SearchPath = 'memory') {
      const endpoint = endpoints[name];
      const target = path === 'memory' ? server : sqlServer;
      const key = `${path}:${endpoint.agent}`;
      if (!clientsByAgent.has(key))
        clientsByAgent.set(key, apiClient(target.baseUrl, await signInAs(target.baseUrl, 'chanwaiman', { agentCode: endpoint.agent })));
      const { body } = await clientsByAgent.get(key)!.call(name, input);
      expect(body.code, `${name} ${JSON.stringify(input)}: ${body.msg}`).toBe('0');
    }

    /**
     * The plan PostgreSQL reuses for a prepared statement once it settles on a generic plan (after
     * five custom plans): made without the parameters' values, so it may differ from `planOf`'s.
     */
    async function genericPlanOf(
      text: string,
      params: readonly unknown[],
      options: { mode?: 'force_generic_plan' | 'force_custom_plan'; analyze?: boolean } = {},
    ): Promise<PlanNode> {
      const client = await database.pool!.connect();
      // EXECUTE's arguments cannot be bind parameters; as untyped literals they take the statement's types.
      const literal = (value: unknown) =>
        value === null ? 'null' : `'${(typeof value === 'string' ? value : JSON.stringify(value)).replace(/'/g, "''")}'`;
      try {
        if (!options.analyze) await client.query('set enable_seqscan = off');
        await client.query(`set plan_cache_mode = ${options.mode ?? 'force_generic_plan'}`);
        await client.query(`prepare plan_guard as ${text}`);
        const args = params.length > 0 ? `(${params.map(literal).join(', ')})` : '';
        const { rows } = await client.query(`explain (${options.analyze ? 'analyze, ' : ''}format json) execute plan_guard${args}`);
        const value = (rows[0] as Record<string, unknown>)['QUERY PLAN'];
        return ((typeof value === 'string' ? JSON.parse(value) : value) as { Plan: PlanNode }[])[0]!.Plan;
      } finally {
        await client.query('deallocate plan_guard').catch(() => undefined);
        await client.query('reset enable_seqscan');
        await client.query('reset plan_cache_mode');
        client.release();
      }
    }

    /**
     * A generic plan can avoid sequential scans and still read far more than the plan made for the
     * values: a Chinese name's LIKE sent to the name's trigram index, which a two-character term
     * cannot narrow, read all 1,000,000 entries (250 ms against 1 ms). Compared by index entries read,
     * as EXPLAIN ANALYZE counts them, so the check does not depend on timing.
     */
    async function genericReadsTooMuch(text: string, params: readonly unknown[]): Promise<string | null> {
      const generic = indexRowsRead(await genericPlanOf(text, params, { analyze: true }));
      const custom = indexRowsRead(await genericPlanOf(text, params, { analyze: true, mode: 'force_custom_plan' }));
      return generic > custom * 10 + 200 ? `its generic plan reads ${generic} index entries, the custom plan ${custom}` : null;
    }

    /** EXPLAIN on one connection with seq scans discouraged; the plan's root node. */
    async function planOf(text: string, params: readonly unknown[]): Promise<PlanNode> {
      const explain = `explain (format json) ${text}`;
      let rows: Record<string, unknown>[];
      if (database.pool) {
        const client = await database.pool.connect();
        try {
          await client.query('set enable_seqscan = off');
          rows = (await client.query(explain, [...params])).rows as Record<string, unknown>[];
        } finally {
          await client.query('reset enable_seqscan');
          client.release();
        }
      } else {
        // PGlite is one connection; nothing else runs while the test awaits.
        await database.query('set enable_seqscan = off');
        try {
          rows = await database.query(explain, [...params]);
        } finally {
          await database.query('reset enable_seqscan');
        }
      }
      const value = rows[0]!['QUERY PLAN'];
      const parsed = (typeof value === 'string' ? JSON.parse(value) : value) as { Plan: PlanNode }[];
      return parsed[0]!.Plan;
    }

    /** Rows the plan's scans of `relation` read (returned or filtered out), over all their loops (EXPLAIN ANALYZE; a node never executed reads none). */
    const rowsReadFrom = (node: PlanNode, relation: string): number =>
      (node['Relation Name'] !== undefined && tableOf(node['Relation Name']) === relation
        ? ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) * (node['Actual Loops'] ?? 1)
        : 0) + (node.Plans ?? []).reduce((sum, child) => sum + rowsReadFrom(child, relation), 0);

    it('a filter set nobody in the book matches ("holds HK" and "no holdings") reads no customer row, whatever comes with it', async () => {
      const contradictions: [EndpointName, Input][] = [
        ['searchCustomers', { markets: ['HK'], hasHolding: false, assetMin: 1_000, sortBy: 'openDate' }],
        ['searchCustomers', { markets: ['US'], hasHolding: false, kycBound: false, openDateFrom: '2020-01-01' }],
        ['statCustomers', { markets: ['HK'], hasHolding: false, assetMax: 5_000_000 }],
      ];
      for (const [name, input] of contradictions) {
        const reads = (await statementsRunBy(name, input, 'sql')).filter(({ text }) => /\bfrom "customer" "c"/.test(text));
        expect(reads.length, `${name} ${JSON.stringify(input)} read no customer table at all`).toBeGreaterThan(0);
        for (const { text, params } of reads) {
          const plan = await analyzedPlanOf(text, params);
          expect(rowsReadFrom(plan, 'customer'), `${name} ${JSON.stringify(input)}:\n${text}`).toBe(0);
        }
      }
    });

    it('a timeline page reads a page from each source, not the client’s history: the keyset merge of index scans (ADR 0040)', async () => {
      const limit = 5;
      const [heavy] = await database.query<{ id: number; trades: number }>(
        `select t.customer_id::float8 as id, count(*)::int as trades from trade t join customer c on c.id = t.customer_id
           join staff s on s.id = c.staff_id where s.wecom_user_id = 'chanwaiman' group by t.customer_id order by trades desc, id limit 1`,
      );
      expect(heavy!.trades, 'the busiest client has more trades than a page').toBeGreaterThan(limit * 4);
      const months: Record<string, number> = {};
      for (const table of ['trade', 'stock_transfer'])
        months[table] = (
          await database.query<{ n: number }>(`select count(*)::int as n from pg_inherits where inhparent = $1::regclass`, [table])
        )[0]!.n;
      const cursors = [undefined, timelineCursorText({ atMicros: (Date.now() - 200 * 86_400_000) * 1000, rank: 4, id: 1 })];
      for (const cursor of cursors) {
        const statements = await statementsRunBy('getTimeline', {
          customerId: heavy!.id,
          kinds: [...TIMELINE_KINDS],
          limit,
          ...(cursor ? { cursor } : {}),
        });
        const page = statements.find(({ text }) => text.includes('"atMicros"'));
        expect(page, 'the timeline statement').toBeDefined();
        const plan = await analyzedPlanOf(page!.text, page!.params, { seqScanOff: true });
        // A page's ids (limit + 1, and a row of the cut's own instant the tie-break filters out), then those rows by id;
        // and the first entry of each month's partition, which the merge of the months opens (ADR 0053: with a live
        // default partition the months cannot be read one after the other), however long the history.
        expect(rowsReadFrom(plan, 'trade'), `trades read for ${cursor ?? 'the first page'}`).toBeLessThanOrEqual(
          2 * (limit + 2) + months.trade!,
        );
        expect(rowsReadFrom(plan, 'stock_transfer')).toBeLessThanOrEqual(2 * (limit + 2) + months.stock_transfer!);
        expect(seqScansOnBigTables(plan)).toEqual([]);
      }
    });

    it('a trade, money or transfer page with a date range reads only the partitions of its months, in its plan and its prepared generic plan (ADR 0053)', async () => {
      // Two whole Hong Kong months of the seeded two years: 1 March to 30 April of the year before, say.
      const [year, month] = addMonths(TODAY, -8).split('-').map(Number) as [number, number];
      const first = `${year}-${String(month).padStart(2, '0')}`;
      const second = addMonths(`${first}-01`, 1).slice(0, 7);
      const dateTo = addDays(addMonths(`${first}-01`, 2), -1);
      const pages: [EndpointName, string][] = [
        ['getTrade', 'trade'],
        ['getWithdrawalDeposit', 'money_movement'],
        ['getTransfer', 'stock_transfer'],
      ];
      for (const [name, table] of pages) {
        const expected = [first, second].map((yearMonth) => `${table}_p${yearMonth.replace('-', '_')}`);
        const input = { customerId: context.customerId, dateFrom: `${first}-01`, dateTo };
        const reads = (await statementsRunBy(name, input)).filter(({ text }) => text.includes(`from "${table}"`));
        // The page's list and its totals each read them.
        const monthsOf = (plan: PlanNode) => [...new Set(partitionsRead(plan, table))].sort();
        expect(reads.length, `${name} reads ${table}`).toBeGreaterThan(0);
        for (const { text, params, prepared } of reads) {
          const where = `${name} ${JSON.stringify(input)}:\n${text}`;
          expect(monthsOf(await analyzedPlanOf(text, params)), where).toEqual(expected);
          // A generic plan cannot prune while planning; it prunes when it starts ("Subplans Removed").
          if (prepared && database.pool)
            expect(monthsOf(await genericPlanOf(text, params, { analyze: true })), `generic plan of ${where}`).toEqual(expected);
        }
      }
    });

    it('the audit trail and a timeline’s edits and KYC changes read a page through each month’s own index (ADR 0053)', async () => {
      // Each partition's index is attached to the parent's: the parent's name says which index a scan used.
      const parentIndexOf = new Map(
        (
          await database.query<{ child: string; parent: string }>(
            `select child.relname as child, parent.relname as parent from pg_inherits i
               join pg_class child on child.oid = i.inhrelid join pg_class parent on parent.oid = i.inhparent
              where parent.relkind = 'I' and parent.relname like 'audit_log%'`,
          )
        ).map((row) => [row.child, row.parent]),
      );
      const auditIndexesUsed = (node: PlanNode): string[] => [
        ...new Set([
          ...(node['Index Name'] && parentIndexOf.has(node['Index Name']) ? [parentIndexOf.get(node['Index Name'])!] : []),
          ...(node.Plans ?? []).flatMap(auditIndexesUsed),
        ]),
      ];
      const [months] = await database.query<{ n: number }>(
        `select count(*)::int as n from pg_inherits where inhparent = 'audit_log'::regclass`,
      );
      expect(months!.n, 'two years of months, the coming ones and the default').toBeGreaterThan(24);
      const [middle] = await database.query<{ id: number }>(
        `select l.id::float8 as id from audit_log l join staff s on s.id = l.actor_staff_id
          where s.wecom_user_id = 'chanwaiman' and l.at < now() - interval '1 year' order by l.at desc, l.id desc limit 1`,
      );
      const limit = 5;
      // What each may read of audit_log: its page (one more to know there is a next, one of the cut's own instant)
      // and, as the months are merged rather than read in order (ADR 0053), the first entry of each month.
      const page = limit + 2 + months!.n;
      const cursor = timelineCursorText({ atMicros: (Date.now() - 300 * 86_400_000) * 1000, rank: 15, id: 1 });
      const cases: { name: EndpointName; input: Input; indexes: string[]; reads: number }[] = [
        { name: 'getMyAuditTrail', input: { limit }, indexes: ['audit_log_actor_idx'], reads: page },
        // The entity is tested on the actor's entries: each month reads past the others' entries to its first match.
        { name: 'getMyAuditTrail', input: { limit, entity: 'kyc_binding' }, indexes: ['audit_log_actor_idx'], reads: page + months!.n },
        // The cursor's entry is found by its id in every month's primary key (id, at), then the page below it.
        { name: 'getMyAuditTrail', input: { limit, cursor: middle!.id }, indexes: ['audit_log_actor_idx', 'audit_log_pkey'], reads: page },
        ...[undefined, cursor].map((cut) => ({
          name: 'getTimeline' as const,
          input: { customerId: context.customerId, kinds: ['profileEdit', 'kyc'], limit, ...(cut ? { cursor: cut } : {}) },
          indexes: ['audit_log_entity_idx', 'audit_log_kyc_customer_idx'],
          // Two sources, each its own merge of the months.
          reads: 2 * page,
        })),
      ];
      for (const { name, input, indexes, reads: allowed } of cases) {
        const reads = (await statementsRunBy(name, input)).filter(({ text }) => text.includes('from "audit_log"'));
        expect(reads.length, `${name} reads audit_log`).toBeGreaterThan(0);
        for (const { text, params, prepared } of reads) {
          const where = `${name} ${JSON.stringify(input)}:\n${text}`;
          const plan = await analyzedPlanOf(text, params, { seqScanOff: true });
          expect(auditIndexesUsed(plan).sort(), where).toEqual(indexes);
          expect(seqScansOnBigTables(plan), where).toEqual([]);
          expect(rowsReadFrom(plan, 'audit_log'), where).toBeLessThanOrEqual(allowed);
          if (prepared && database.pool) {
            const generic = await genericPlanOf(text, params);
            expect(auditIndexesUsed(generic).sort(), `generic plan of ${where}`).toEqual(indexes);
          }
        }
      }
    });

    /** The statements the app ran for one call (the call must succeed). */
    async function statementsRunBy(name: EndpointName, input: Input, path: SearchPath = 'memory') {
      captured = [];
      try {
        await call(name, input, path);
        return captured;
      } finally {
        captured = null;
      }
    }

    /**
     * EXPLAIN ANALYZE of one statement, as run (custom plan): its root node. `seqScanOff`: as `planOf`, so the
     * seeded months' small partitions, which a seq scan reads cheaply, plan as a full-size month would.
     */
    async function analyzedPlanOf(text: string, params: readonly unknown[], options: { seqScanOff?: boolean } = {}): Promise<PlanNode> {
      const explain = `explain (analyze, format json) ${text}`;
      const setting = options.seqScanOff ? 'set enable_seqscan = off' : 'reset enable_seqscan';
      let result: unknown[];
      if (database.pool) {
        const client = await database.pool.connect();
        try {
          await client.query(setting);
          result = (await client.query(explain, [...params])).rows;
        } finally {
          await client.query('reset enable_seqscan');
          client.release();
        }
      } else {
        await database.query(setting);
        try {
          result = await database.query(explain, [...params]);
        } finally {
          await database.query('reset enable_seqscan');
        }
      }
      const value = (result[0] as Record<string, unknown>)['QUERY PLAN'];
      return ((typeof value === 'string' ? JSON.parse(value) : value) as { Plan: PlanNode }[])[0]!.Plan;
    }

    /** Each endpoint as the app runs it; the client list's two also by SQL alone, as a book too large for memory is searched. */
    const guarded: [EndpointName, Samples, SearchPath][] = (Object.entries(checked) as [EndpointName, Samples][]).flatMap(
      ([name, samples]): [EndpointName, Samples, SearchPath][] =>
        name === 'searchCustomers' || name === 'statCustomers'
          ? [
              [name, samples, 'memory'],
              [name, samples, 'sql'],
            ]
          : [[name, samples, 'memory']],
    );
    for (const [name, samples, path] of guarded) {
      it(`${name}${path === 'sql' ? ' (searched in SQL)' : ''}: no sequential scan over ${[...BIG_TABLES].join(', ')}`, async () => {
        const failures: string[] = [];
        const texts: string[] = [];
        let statements = 0;
        // After a write, the book's index catches up from staff_book_change: that statement is guarded too.
        if (path === 'memory' && name === 'searchCustomers')
          await database.query(
            `update customer set remark = coalesce(remark, '') where id = (select c.id from customer c join staff s on s.id = c.staff_id where s.wecom_user_id = 'chanwaiman' order by c.id limit 1)`,
          );
        for (const input of samples(context)) {
          for (const { text, params, prepared } of await statementsRunBy(name, input, path)) {
            texts.push(text);
            // Reads only: EXPLAIN of a write would still be safe, but no hot path writes here.
            if (!/^\s*(select|with)\b/i.test(text)) continue;
            statements += 1;
            const plans = [{ kind: 'plan', plan: await planOf(text, params) }];
            // PGlite reports prepared statements too, but has no plan cache (and no pool) to check.
            if (prepared && database.pool) {
              plans.push({ kind: 'generic plan (prepared statement)', plan: await genericPlanOf(text, params) });
              const excess = await genericReadsTooMuch(text, params);
              if (excess) failures.push(`${name} ${JSON.stringify(input)}: ${excess}:\n${text}\nparams: ${JSON.stringify(params)}`);
            }
            for (const { kind, plan } of plans) {
              for (const filter of gramFunctionsPerRow(plan))
                failures.push(`${name} ${JSON.stringify(input)}: its ${kind} runs a gram function per row: ${filter}\n${text}`);
              const scanned = seqScansOnBigTables(plan);
              if (scanned.length > 0)
                failures.push(
                  `${name} ${JSON.stringify(input)}: its ${kind} reads ${scanned.join(', ')} sequentially:\n${text}\nparams: ${JSON.stringify(params)}\nplan: ${JSON.stringify(plan, null, 1)}`,
                );
            }
          }
        }
        expect(statements, `${name} ran no SELECT: the samples no longer reach the database`).toBeGreaterThan(0);
        if (path === 'memory' && name === 'searchCustomers')
          expect(texts.join('\n'), 'the catch-up from the change log').toContain('from "staff_book_change" "ch"');
        expect(failures, failures.join('\n\n')).toEqual([]);
      });
    }
  });
}
