// What a book index costs on a synthetic book built from the seed's name tables (ADR 0046, "Cost"): heap
// per customer, and the median time of a first page (20 rows by total assets) and of the page plus the
// header stat per keyword. Run from the repository root:
//   nice -n 19 node --expose-gc --import tsx apps/server/scripts/book-index-cost.mts
// SIZE (customers, default 125,000), RUNS (per keyword, default 40), KEYWORDS (comma-separated) and ROOT
// (another checkout to measure, e.g. main's) can be set in the environment.
const root = process.env.ROOT ?? new URL('../../..', import.meta.url).pathname;
const { BookIndex } = await import(`${root}/apps/server/src/modules/customer-search/book-index.ts`);
const { interpretKeyword } = await import(`${root}/apps/server/src/modules/customer-search/customer-keyword.ts`);
const { searchTerms } = await import(`${root}/apps/server/src/db/search-terms.ts`);
const { Prng } = await import(`${root}/apps/server/src/db/seed/prng.ts`);
const ref = await import(`${root}/apps/server/src/db/seed/reference-data.ts`);

const SIZE = Number(process.env.SIZE ?? 125_000);
const rng = new Prng(46, 1);
const termsOf = new Map<string, string>();
const rows = [];
for (let id = 1; id <= SIZE; id += 1) {
  const surname = rng.weighted(ref.SURNAMES, ref.SURNAME_WEIGHTS);
  const male = rng.chance(0.5);
  const pool = male ? ref.GIVEN_MALE : ref.GIVEN_FEMALE;
  const given = rng.chance(0.85) ? [rng.pick(pool), rng.pick(pool)] : [rng.pick(pool)];
  const nameCn = surname[0] + given.map((part: string[]) => part[0]).join('');
  let nameEn: string;
  if (rng.chance(0.3)) {
    const pinyin = given.map((part: string[]) => part[2]).join('');
    nameEn = `${surname[2]} ${pinyin.charAt(0) + pinyin.slice(1).toLowerCase()}`;
  } else {
    const cantonese = given.map((part: string[]) => part[1]).join(' ');
    const english = rng.chance(0.4) ? rng.pick(male ? ref.ENGLISH_MALE : ref.ENGLISH_FEMALE) : null;
    nameEn = english ? `${english} ${surname[1]} ${cantonese}` : `${surname[1]} ${cantonese}`;
  }
  let terms = termsOf.get(nameCn);
  if (terms === undefined) termsOf.set(nameCn, (terms = searchTerms(nameCn)));
  const phoneDigits = `852${rng.int(50_000_000, 99_999_999)}`;
  rows.push({
    id,
    channel: ref.CHANNELS[rng.int(0, 3)],
    status: rng.weighted(['active', 'dormant', 'closed'], [72, 20, 8]),
    nameCn,
    nameEn,
    searchTerms: terms,
    phoneDigits,
    idDocLast4: String(rng.int(1000, 9999)),
    assetCents: rng.int(0, 500_000_000),
    openDate: `20${10 + rng.int(0, 15)}-0${rng.int(1, 9)}-1${rng.int(0, 9)}`,
    lastTradeDate: rng.chance(0.8) ? `2026-0${rng.int(1, 9)}-2${rng.int(0, 8)}` : null,
    heldMarkets: rng.chance(0.6) ? ['HK'] : [],
    kycBound: rng.chance(0.7),
    accountNos: [`A${String(id).padStart(9, '0')}`],
    customerNo: `C${String(id).padStart(8, '0')}`,
    phone: `+852 ${phoneDigits.slice(3)}`,
    idDocMasked: 'A12****4',
    riskLevel: rng.int(1, 5),
    tags: [],
  });
}
const gc = (globalThis as { gc?: () => void }).gc!;
gc();
gc();
const before = process.memoryUsage().heapUsed;
const started = performance.now();
const index = new BookIndex('1', rows);
const buildMs = performance.now() - started;
gc();
gc();
const after = process.memoryUsage().heapUsed;
console.log(`rows ${SIZE}  build ${buildMs.toFixed(0)} ms  index heap per customer ${((after - before) / SIZE).toFixed(0)} B`);
const book = { corpId: 1, staffId: 1 };
const RUNS = Number(process.env.RUNS ?? 40);
const keywords = (process.env.KEYWORDS ?? 'wong,huang,wong chi,chi ming wong,cww,chan,陈,黃,ch,wo,9123,5555,A000012345,C00001234').split(
  ',',
);
/** CPU time of the process in ms (user + system): a loaded machine's preemption is not counted, as wall time would. */
const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
const median = (list: number[]) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)]!.toFixed(2);
for (const text of keywords) {
  const criteria = { ...book, keyword: interpretKeyword(text) };
  const pageTimes: number[] = [];
  const bothTimes: number[] = [];
  let total = 0;
  for (let run = -2; run < RUNS; run += 1) {
    // Each run as a new request: the index may keep the last keyword's matches for the stat that follows its
    // page (the list asks both), not from one run to the next.
    (index as { lastRomanised?: unknown }).lastRomanised = undefined;
    const t0 = cpuMs();
    total = index.page(criteria, 'totalAssets', 'desc', { pageNum: 1, pageSize: 20 }).total;
    const t1 = cpuMs();
    index.stat(criteria, '2026-11-01');
    const t2 = cpuMs();
    if (run < 0) continue;
    pageTimes.push(t1 - t0);
    bothTimes.push(t2 - t0);
  }
  console.log(
    `${text.padEnd(14)} matches ${String(total).padStart(6)}  page ${median(pageTimes)} ms  page+stat ${median(bothTimes)} ms CPU (median of ${RUNS})`,
  );
}
