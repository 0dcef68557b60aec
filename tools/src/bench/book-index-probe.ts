// What an in-memory book index costs (ADR 0035): heap bytes per customer and heap objects, full-GC pauses with the book
// loaded and GC pauses during a search workload, CPU per request of the bench's search cells (inputs never repeated).
// The book is synthetic, like the bench's biggest, or with DATABASE_URL that database's biggest (SQL_PATH=1: searched in
// SQL instead). Run from the repository root: nice -n 19 node --expose-gc --import tsx tools/src/bench/book-index-probe.ts
// Settings: SIZE (customers), N (requests per cell), CELLS, SNAPSHOT=0 (no heap snapshots), ROOT (another checkout).
import { closeSync, openSync, readSync, rmSync } from 'node:fs';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { writeHeapSnapshot } from 'node:v8';
import { loadBookSample, paramStream, type BookSample } from './param-generator';

const root = process.env.ROOT ?? new URL('../../..', import.meta.url).pathname;
const search = `${root}/apps/server/src/modules/customer-search`;
const { BookIndex } = await import(`${search}/book-index.ts`);
const { interpretKeyword } = await import(`${search}/customer-keyword.ts`);
const { searchTerms } = await import(`${root}/apps/server/src/db/search-terms.ts`);
const ref = await import(`${root}/apps/server/src/db/seed/reference-data.ts`);
const { Prng } = await import(`${root}/apps/server/src/db/seed/prng.ts`);

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const BOOK_SIZE = Number(process.env.SIZE ?? 125_000);
const N = Number(process.env.N ?? 2000);
const CELLS = (process.env.CELLS ?? 'search:name,search:phone,search:account,search:filters,search:pages,stat').split(',').filter(Boolean);
const ASOF = '2026-11-20';
const criteriaOf = (input: Record<string, never>, book = { corpId: 1, staffId: 1 }) => ({
  corpId: book.corpId,
  staffId: book.staffId,
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
/** The list's sort and page as a request gives them, else its defaults. */
const viewOf = (input: Record<string, never>) => ({
  sortBy: input.sortBy ?? 'totalAssets',
  sortOrder: input.sortOrder ?? 'desc',
  pageNum: input.pageNum ?? 1,
  pageSize: input.pageSize ?? 20,
});
/** The `p` quantile of the times, sorted in place, as text. */
const quantiles = (times: number[], digits: number) => {
  times.sort((a, b) => a - b);
  return (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(digits);
};

if (process.env.DATABASE_URL && process.env.SQL_PATH === '1') {
  await measureSql(process.env.DATABASE_URL);
  process.exit(0);
}

/** A book drawn from the seed's tables like the bench's biggest, every row with its terms and a list row's display fields. */
function syntheticBook() {
  const rng = new Prng(46);
  const termsOf = new Map<string, string>();
  const rows = [];
  for (let id = 1; id <= BOOK_SIZE; id += 1) {
    const surname = rng.weighted(ref.SURNAMES, ref.SURNAME_WEIGHTS);
    const male = rng.chance(0.5);
    const pool = male ? ref.GIVEN_MALE : ref.GIVEN_FEMALE;
    const given: string[][] = rng.chance(0.85) ? [rng.pick(pool), rng.pick(pool)] : [rng.pick(pool)];
    const nameCn = surname[0] + given.map((part) => part[0]).join('');
    let nameEn: string;
    if (rng.chance(0.3)) {
      const pinyin = given.map((part) => part[2]).join('');
      nameEn = `${surname[2]} ${pinyin.charAt(0) + pinyin.slice(1).toLowerCase()}`;
    } else {
      const english: string | null = rng.chance(0.4) ? rng.pick(male ? ref.ENGLISH_MALE : ref.ENGLISH_FEMALE) : null;
      const cantonese = given.map((part) => part[1]).join(' ');
      nameEn = english ? `${english} ${surname[1]} ${cantonese}` : `${surname[1]} ${cantonese}`;
    }
    let terms = termsOf.get(nameCn);
    if (terms === undefined) termsOf.set(nameCn, (terms = searchTerms(nameCn)));
    const phoneDigits = `852${rng.int(50_000_000, 99_999_999)}`;
    const idDocLast4 = `${rng.int(100, 999)}${rng.pick(['0', '1', '2', 'A'])}`;
    rows.push({
      id,
      channel: rng.pick(ref.CHANNELS),
      status: rng.chance(0.72) ? 'active' : rng.chance(0.7) ? 'dormant' : 'closed',
      nameCn,
      nameEn,
      searchTerms: terms,
      phoneDigits,
      idDocLast4,
      assetCents: rng.int(0, 500_000_000),
      openDate: `20${10 + rng.int(0, 16)}-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(10, 28))}`,
      lastTradeDate: rng.chance(0.8) ? `2026-${String(rng.int(1, 11)).padStart(2, '0')}-${String(rng.int(10, 28))}` : null,
      heldMarkets: rng.chance(0.6) ? (rng.chance(0.3) ? ['HK', 'US'] : ['HK']) : [],
      kycBound: rng.chance(0.05),
      accountNos: rng.chance(0.3)
        ? [`${rng.int(10, 99)}${String(id).padStart(6, '0')}`, `M${String(id).padStart(7, '0')}`]
        : [`${rng.int(10, 99)}${String(id).padStart(6, '0')}`],
      customerNo: `C${String(id).padStart(8, '0')}`,
      phone: `+852 ${phoneDigits.slice(3, 7)} ${phoneDigits.slice(7)}`,
      idDocMasked: `A${idDocLast4.slice(0, 1)}****${idDocLast4.slice(3)}`,
      riskLevel: rng.int(1, 5),
      tags: rng.chance(0.3) ? [rng.pick(ref.CUSTOMER_TAGS)] : [],
    });
  }
  const sample: BookSample = {
    customers: rows.map(({ id, customerNo, nameCn, nameEn, phoneDigits, idDocLast4, accountNos }) => ({
      id,
      customerNo,
      nameCn,
      nameEn,
      phoneDigits,
      idDocLast4,
      accountNos,
    })),
    channels: [...ref.CHANNELS],
    eventCustomerIds: [],
    servedNames: [],
    asOf: ASOF,
    firstOpenDate: '2010-01-10',
    timelineCustomer: null,
  };
  return { rows, sample };
}

/** A seeded database and its biggest book. */
async function biggestBook(url: string) {
  const { openDatabase } = await import(`${root}/apps/server/src/db/client.ts`);
  const database = await openDatabase({ url, poolMax: 2 });
  const [book] = await database.query(
    `select staff_id as "staffId", corp_id as "corpId", count(*)::int as clients from customer group by 1, 2 order by 3 desc limit 1`,
  );
  return { database, book };
}

/** The biggest book of a seeded database, as the store loads it. */
async function databaseBook(url: string) {
  const { database, book } = await biggestBook(url);
  const rows = await database.query(
    `select c.id::float8 as id, c.channel, c.status, c.name_cn as "nameCn", c.name_en as "nameEn", c.search_terms as "searchTerms",
            c.phone_digits as "phoneDigits", c.id_doc_last4 as "idDocLast4", (c.total_assets_hkd * 100)::float8 as "assetCents",
            c.open_date::text as "openDate", c.last_trade_date::text as "lastTradeDate", c.held_markets as "heldMarkets",
            exists (select 1 from kyc_binding k where k.customer_id = c.id and k.corp_id = c.corp_id) as "kycBound",
            array(select a.account_no from account a where a.customer_id = c.id order by a.id) as "accountNos",
            c.customer_no as "customerNo", c.phone, c.id_doc_masked as "idDocMasked", c.risk_level as "riskLevel", c.tags
       from customer c where c.staff_id = $1`,
    [book.staffId],
  );
  const sample = await loadBookSample(database, book.staffId, ASOF);
  await database.close();
  return { rows, sample };
}

const book = process.env.DATABASE_URL ? await databaseBook(process.env.DATABASE_URL) : syntheticBook();
const { rows } = book;
const SIZE = rows.length;
// The inputs, drawn before anything is measured (the generators allocate too).
const inputs = new Map(
  CELLS.map((cell) => {
    const stream = paramStream(cell, book.sample, 1);
    return [cell, Array.from({ length: N + 200 }, () => stream.next() as Record<string, never>)];
  }),
);

/** Heap objects: the node count at the head of a heap snapshot of this process. */
const heapObjects = () => {
  if (process.env.SNAPSHOT === '0') return NaN;
  const file = writeHeapSnapshot(`/tmp/book-index-probe-${process.pid}.heapsnapshot`);
  // Only the head: the whole file as a string would stay reachable from the RegExp's last match.
  const descriptor = openSync(file, 'r');
  const head = Buffer.alloc(4000);
  readSync(descriptor, head, 0, head.length, 0);
  closeSync(descriptor);
  rmSync(file);
  return Number(/"node_count":(\d+)/.exec(head.toString('latin1'))![1]);
};
/** The JS heap and the typed arrays' stores outside it, after two forced GCs. */
const settle = () => {
  gc();
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return { heap: heapUsed, stores: arrayBuffers };
};

const started = performance.now();
let index = new BookIndex('1', rows);
const buildMs = performance.now() - started;
rows.length = 0;

const pauses: { kind: number; ms: number }[] = [];
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries())
    pauses.push({ kind: (entry as { detail?: { kind: number } }).detail?.kind ?? 0, ms: entry.duration });
});
observer.observe({ entryTypes: ['gc'] });
const tick = () => new Promise((resolve) => setImmediate(resolve));
await tick();
const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
/** A forced full GC: its wall time and the process's CPU time during it (a loaded machine's preemption is not CPU). */
const fullGc = () => {
  const [wall, cpu] = [performance.now(), cpuMs()];
  gc();
  return `${(performance.now() - wall).toFixed(1)} ms (${(cpuMs() - cpu).toFixed(1)} ms CPU)`;
};
pauses.length = 0;
/** A request as the list answers it: the page and its rows (the stat cell: the header stat). */
const answer = (cell: string, input: Record<string, never>) => {
  const criteria = criteriaOf(input);
  if (cell === 'stat') return index.stat(criteria, `${ASOF.slice(0, 8)}01`);
  const view = viewOf(input);
  const page = index.page(criteria, view.sortBy, view.sortOrder, view);
  return JSON.stringify(page.ids.map((id: number) => index.customer(id)));
};
for (const cell of CELLS) {
  const cellInputs = inputs.get(cell)!;
  // The first 200 warm the sort orders and the JIT, as the bench's warm-up does; the rest are measured.
  for (const input of cellInputs.slice(0, 200)) answer(cell, input);
  const times: number[] = [];
  const cpuBefore = cpuMs();
  for (const input of cellInputs.slice(200)) {
    const at = performance.now();
    answer(cell, input);
    times.push(performance.now() - at);
    await tick();
  }
  const cpu = (cpuMs() - cpuBefore) / N;
  const q = quantiles(times, 3);
  console.log(`${cell.padEnd(15)} CPU ${cpu.toFixed(3)} ms/request; wall p50 ${q(0.5)} p95 ${q(0.95)} max ${q(1)} ms`);
}
await tick();
observer.disconnect();
// What a server holds: the book and the modules, not the probe's sample and inputs.
(book as { sample?: unknown }).sample = undefined;
inputs.clear();
// The index alone, its sort orders built: the heap with it, less the heap once it is dropped.
const heapWith = settle();
const objectsWith = heapObjects();
const fullGcWithBook = fullGc();
const worst = (kind: number) => pauses.filter((pause) => pause.kind === kind).reduce((max, pause) => Math.max(max, pause.ms), 0);
const count = (kind: number) => pauses.filter((pause) => pause.kind === kind).length;
console.log(
  `GC: during the workload ` +
    `major ${count(constants.NODE_PERFORMANCE_GC_MAJOR)} (max ${worst(constants.NODE_PERFORMANCE_GC_MAJOR).toFixed(1)} ms), ` +
    `minor ${count(constants.NODE_PERFORMANCE_GC_MINOR)} (max ${worst(constants.NODE_PERFORMANCE_GC_MINOR).toFixed(1)} ms), ` +
    `incremental ${count(constants.NODE_PERFORMANCE_GC_INCREMENTAL)} (max ${worst(constants.NODE_PERFORMANCE_GC_INCREMENTAL).toFixed(1)} ms)`,
);
if (index.rows !== SIZE) throw new Error(`the index holds ${index.rows} customers`);
index = undefined;
const heapWithout = settle();
console.log(`a forced full GC with the book loaded: ${fullGcWithBook}; once it is dropped: ${fullGc()}`);
const objectsWithout = heapObjects();
const perCustomer = (bytes: number) => `${(bytes / SIZE).toFixed(0)} B per customer (${(bytes / 2 ** 20).toFixed(1)} MB)`;
console.log(
  `book of ${SIZE} customers, built in ${buildMs.toFixed(0)} ms: JS heap ${perCustomer(heapWith.heap - heapWithout.heap)}, ` +
    `typed arrays' stores ${perCustomer(heapWith.stores - heapWithout.stores)}, together ` +
    `${perCustomer(heapWith.heap + heapWith.stores - heapWithout.heap - heapWithout.stores)}; ` +
    `${objectsWith - objectsWithout} heap objects (${objectsWith} in the process)`,
);

/** The SQL path (a book the index does not hold) of the checkout at ROOT, cell by cell. */
async function measureSql(url: string) {
  const { createManageRepository } = await import(`${root}/apps/server/src/modules/manage/manage.repository.ts`);
  const { database, book } = await biggestBook(url);
  const [{ asOf }] = await database.query(`select coalesce(max(open_date), current_date)::text as "asOf" from customer`);
  const sample = await loadBookSample(database, book.staffId, asOf);
  // Without indexes: every search is answered in SQL, as for a book over the budget.
  const repository = createManageRepository(database.db);
  const n = Number(process.env.N ?? 100);
  console.log(`SQL path, book of ${book.clients} customers, ${n} requests per cell (never repeated), one at a time:`);
  for (const cell of CELLS) {
    const stream = paramStream(cell, sample, 2);
    const times: number[] = [];
    for (let at = -10; at < n; at += 1) {
      const input = stream.next() as Record<string, never>;
      const criteria = criteriaOf(input, book);
      const started = performance.now();
      if (cell === 'stat') await repository.stat(criteria);
      else await repository.search(criteria, viewOf(input));
      if (at >= 0) times.push(performance.now() - started);
    }
    const q = quantiles(times, 1);
    const mean = times.reduce((sum, time) => sum + time, 0) / times.length;
    console.log(`${cell.padEnd(15)} mean ${mean.toFixed(1)} p50 ${q(0.5)} p95 ${q(0.95)} max ${q(1)} ms`);
  }
  await database.close();
}
