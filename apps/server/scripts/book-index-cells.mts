// What the bench's search cells cost inside the book index, in-process, on the real 1M dataset: the
// index of the biggest emulator book (`wongchishing`) loaded from `broker_bench`, then each cell's own
// parameter stream (the bench's seeded generator) answered by `page` (with the page's rows, as the list
// builds them) or `stat`. Prints CPU per request, median and p95, per cell and per kind of input.
//   node --import tsx apps/server/scripts/book-index-cells.mts
// DATABASE_URL (default postgres://root@127.0.0.1:5432/broker_bench), STAFF (default wongchishing),
// N (requests per cell, default 3000), CELLS (comma-separated) and ROOT (another checkout) can be set.
import pg from 'pg';

const root = process.env.ROOT ?? new URL('../../..', import.meta.url).pathname;
const { BookIndex } = await import(`${root}/apps/server/src/modules/customer-search/book-index.ts`);
const { interpretKeyword } = await import(`${root}/apps/server/src/modules/customer-search/customer-keyword.ts`);
const { paramStream, loadBookSample } = await import(`${root}/tools/src/bench/param-generator.ts`);

const client = new pg.Client({ connectionString: process.env.DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/broker_bench' });
await client.connect();
const query = async <T,>(text: string, params: unknown[] = []) => (await client.query(text, params)).rows as T[];
const [staff] = await query<{ id: number; corpId: number }>('select id, corp_id as "corpId" from staff where wecom_user_id = $1', [
  process.env.STAFF ?? 'wongchishing',
]);
if (!staff) throw new Error('no such staff member');
const [{ asOf }] = await query<{ asOf: string }>(`select coalesce(max(open_date), current_date)::text as "asOf" from customer`);

let started = performance.now();
const rows = await query(
  `select c.id::float8 as id, c.channel, c.status, c.name_cn as "nameCn", c.name_en as "nameEn", c.search_terms as "searchTerms",
          c.phone_digits as "phoneDigits", c.id_doc_last4 as "idDocLast4", (c.total_assets_hkd * 100)::float8 as "assetCents",
          c.open_date::text as "openDate", c.last_trade_date::text as "lastTradeDate", c.held_markets as "heldMarkets",
          exists (select 1 from kyc_binding k where k.customer_id = c.id and k.corp_id = c.corp_id) as "kycBound",
          array(select a.account_no from account a where a.customer_id = c.id order by a.id) as "accountNos",
          c.customer_no as "customerNo", c.phone, c.id_doc_masked as "idDocMasked", c.risk_level as "riskLevel", c.tags
     from customer c where c.corp_id = $1 and c.staff_id = $2`,
  [staff.corpId, staff.id],
);
const index = new BookIndex('1', rows);
console.log(`book of ${rows.length} customers indexed in ${(performance.now() - started).toFixed(0)} ms`);
const sample = await loadBookSample({ query }, staff.id, asOf);
await client.end();

// The generator's inputs, as the contract would hand them on (only the fields read below).
type Input = Record<string, never>;
const criteriaOf = (input: Input) => ({
  corpId: staff.corpId,
  staffId: staff.id,
  keyword: interpretKeyword(input.keyword),
  channels: input.channels,
  statuses: input.statuses,
  assetMinHkd: input.assetMin,
  assetMaxHkd: input.assetMax,
  openDateFrom: input.openDateFrom,
  openDateTo: input.openDateTo,
  kycBound: input.kycBound,
  markets: input.markets,
  hasHolding: input.hasHolding,
});

const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
const now = () => performance.now();
const N = Number(process.env.N ?? 3000);
const cells = (process.env.CELLS ?? 'search:name,search:phone,search:account,search:filters,search:pages,stat').split(',');
const monthStart = `${asOf.slice(0, 8)}01`;
if (process.env.CANDIDATES) {
  for (const cell of cells) {
    const stream = paramStream(cell, sample, 1);
    let candidates = 0,
      matches = 0,
      n = 0;
    for (let i = 0; i < 2000; i++) {
      const input = stream.next();
      const criteria = criteriaOf(input);
      if (!criteria.keyword) continue;
      const found = (
        index as unknown as { keywordCandidates(keyword: unknown, romanised: undefined): { slots: number[] } | undefined }
      ).keywordCandidates(criteria.keyword, undefined);
      candidates += found ? found.slots.length : rows.length;
      matches += index.page(criteria, 'totalAssets', 'desc', { pageNum: 1, pageSize: 20 })!.total;
      n += 1;
    }
    console.log(`${cell}: ${(candidates / n).toFixed(0)} candidates, ${(matches / n).toFixed(0)} matches per keyword`);
  }
  process.exit(0);
}
for (const cell of cells) {
  const stream = paramStream(cell, sample, 1);
  const inputs = Array.from({ length: N }, () => stream.next());
  const run = (input: Input) => {
    const criteria = criteriaOf(input);
    if (cell === 'stat') return index.stat(criteria, monthStart);
    const page = index.page(criteria, input.sortBy ?? 'totalAssets', input.sortOrder ?? 'desc', {
      pageNum: input.pageNum ?? 1,
      pageSize: input.pageSize ?? 20,
    });
    return page?.ids.map((id: number) => index.customer(id));
  };
  // A first pass warms the sort orders and the JIT, as the bench's warm-up does.
  for (const input of inputs.slice(0, 300)) run(input);
  const times: Array<[number, string]> = [];
  const cpuBefore = cpuMs();
  started = now();
  for (const input of inputs) {
    const at = now();
    run(input);
    times.push([now() - at, JSON.stringify(input)]);
  }
  const cpu = (cpuMs() - cpuBefore) / inputs.length;
  const sorted = times.map(([ms]) => ms).sort((a, b) => a - b);
  const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!.toFixed(3);
  console.log(
    `${cell.padEnd(16)} CPU ${cpu.toFixed(3)} ms/request; wall p50 ${q(0.5)} p95 ${q(0.95)} p99 ${q(0.99)} max ${q(1 - 1e-9)} ms`,
  );
  if (process.env.SLOWEST)
    for (const [ms, input] of times.sort((a, b) => b[0] - a[0]).slice(0, Number(process.env.SLOWEST)))
      console.log(`   ${ms.toFixed(2)} ${input}`);
}
