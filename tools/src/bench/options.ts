import { isCalendarDay } from '@broker/domain';
import { parseArgs } from 'node:util';
import { SCENARIO_NAMES } from './scenarios';
import { TARGETS } from './targets';

export const FULL_RUN = {
  customers: TARGETS.targetCustomers,
  pgliteCustomers: 20_000,
  seed: 1,
  asOf: '2026-11-20',
  staff: 10,
  concurrencies: [1, 16, 64],
  durationSeconds: 5,
  warmupSeconds: 1,
  params: 100,
  lighthouseRuns: 5,
  replicas: 2,
} as const;

/**
 * 10 staff up to 1,000,000 customers; above, as many as keep the biggest book 1M's size (a larger brokerage has more
 * managers), so the scale runs (ADR 0052, ADR 0053) measure the database's size alone. The emulator's four staff weigh
 * 1.5 and the others 1, so the biggest book is 1.5 / (staff + 2) of the customers: 12 per million minus 2 keeps it.
 */
export function staffForCustomers(customers: number): number {
  if (customers <= TARGETS.targetCustomers) return FULL_RUN.staff;
  return Math.round((12 * customers) / TARGETS.targetCustomers) - 2;
}

const QUICK = {
  customers: 2000,
  pgliteCustomers: 2000,
  concurrencies: [1, 16],
  durationSeconds: 0.5,
  warmupSeconds: 0.1,
  params: 20,
  lighthouseRuns: 1,
} as const;

/** Every flag: its parseArgs type, the value it takes and what it does, in the order `--help` lists them. */
const FLAGS = {
  customers: { type: 'string', value: 'N', help: 'PostgreSQL dataset size (default 1000000)' },
  'pglite-customers': { type: 'string', value: 'N', help: 'PGlite dataset size (default 20000)' },
  seed: { type: 'string', value: 'N', help: 'seed of the data and of the request parameters: the same sequence again (default 1)' },
  'as-of': { type: 'string', value: 'DAY', help: "the dataset's last day (default 2026-11-20)" },
  staff: { type: 'string', value: 'N', help: 'staff members (default 10 up to 1M customers, then 12 per million minus 2)' },
  'database-url': { type: 'string', value: 'URL', help: 'PostgreSQL database (default 127.0.0.1/broker_bench, broker_bench_<N>)' },
  'read-url': { type: 'string', value: 'URL[,URL]', help: 'PostgreSQL: standbys serving page reads (tools/scripts/local-standby.sh)' },
  reseed: { type: 'boolean', default: false, help: 'load the PostgreSQL dataset again even if the database already holds it' },
  'dataset-only': { type: 'boolean', default: false, help: 'PostgreSQL: load (or reuse) the dataset, vacuum it and stop' },
  engines: { type: 'string', value: 'LIST', help: 'postgres,pglite (default both)' },
  endpoints: { type: 'string', value: 'LIST', help: `some of ${SCENARIO_NAMES.join(', ')}` },
  concurrency: { type: 'string', value: 'LIST', help: 'default 1,16,64' },
  duration: { type: 'string', value: 'S', help: 'measured seconds per cell, API and SQL each (default 5)' },
  warmup: { type: 'string', value: 'S', help: 'unmeasured seconds before each cell (default 1)' },
  params: { type: 'string', value: 'N', help: 'parameter sets per endpoint of the warm-cache row (default 100)' },
  'no-warm': { type: 'boolean', default: false, help: 'skip the warm-cache row (the old repeated parameters)' },
  'no-fixed-rate': { type: 'boolean', default: false, help: 'skip the fixed-arrival-rate cells (50% and 80% of the c16 capacity)' },
  pool: { type: 'string', value: 'N', help: 'server DATABASE_POOL_MAX and the SQL replay pool (default 10)' },
  out: { type: 'string', value: 'DIR', help: 'where benchmarks/results.md goes (default: docs/ for a full run, else a temporary folder)' },
  'no-lighthouse': { type: 'boolean', default: false, help: 'skip Lighthouse' },
  'lighthouse-runs': { type: 'string', value: 'N', help: 'Lighthouse runs, cold cache each, the median reported (default 5; quick 1)' },
  'web-dist': { type: 'string', value: 'DIR', help: 'built web app for Lighthouse (default: build one into a temporary folder)' },
  'lighthouse-only': { type: 'boolean', default: false, help: 'Lighthouse alone, no API or SQL cells (with --quick: 1 run)' },
  'keep-pglite': { type: 'boolean', default: false, help: 'keep the temporary PGlite folder' },
  replicas: { type: 'string', value: 'N', help: 'PostgreSQL: API server processes sharing the load (default 2: ADR 0051)' },
  explain: { type: 'boolean', default: false, help: "also write each endpoint's query plans to benchmarks/explain-<engine>.md" },
  quick: { type: 'boolean', default: false, help: 'smoke run: 2,000 customers each, concurrency 1,16, 0.5 s cells, 20 parameter sets' },
} as const;

export const USAGE = `npm run bench -- [options]\n\n${Object.entries(FLAGS)
  .map(([flag, spec]) => `  ${`--${flag}${'value' in spec ? ` ${spec.value}` : ''}`.padEnd(23)}${spec.help}`)
  .join('\n')}`;

export class UsageError extends Error {}

const positiveInteger = (flag: string, raw: string | undefined, fallback: number) => {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`--${flag}: must be a positive integer, got "${raw}"`);
  return value;
};
const seconds = (flag: string, raw: string | undefined, fallback: number) => {
  if (raw === undefined) return fallback * 1000;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > 600)
    throw new UsageError(`--${flag}: must be a number of seconds from 0 to 600, got "${raw}"`);
  return Math.round(value * 1000);
};
function listOf<T extends string>(flag: string, raw: string | undefined, allowed: readonly T[], fallback: readonly T[]): T[] {
  if (raw === undefined) return [...fallback];
  const values = raw
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);
  const unknown = values.filter((value) => !allowed.includes(value as T));
  if (unknown.length || values.length === 0)
    throw new UsageError(`--${flag}: ${unknown.length ? `unknown ${unknown.join(', ')}` : 'is empty'}; choose from ${allowed.join(', ')}`);
  return values as T[];
}

const ENGINES = ['postgres', 'pglite'] as const;

export const defaultDatabaseUrl = (customers: number) =>
  `postgres://root@127.0.0.1:5432/${customers === TARGETS.targetCustomers ? 'broker_bench' : `broker_bench_${customers}`}`;

export type BenchOptions = ReturnType<typeof parseBenchOptions>;

export function parseBenchOptions(argv: string[]) {
  const { values } = parseArgs({ args: argv, strict: true, options: FLAGS });
  const quick = values.quick;
  const base = quick ? { ...FULL_RUN, ...QUICK } : FULL_RUN;
  const customers = positiveInteger('customers', values.customers, base.customers);
  const seed = Number(values.seed ?? base.seed);
  if (!Number.isInteger(seed)) throw new UsageError(`--seed: must be an integer, got "${values.seed}"`);
  const asOf = values['as-of'] ?? base.asOf;
  if (!isCalendarDay(asOf)) throw new UsageError(`--as-of: must be a date like 2026-11-20, got "${asOf}"`);
  const staff = positiveInteger('staff', values.staff, quick ? base.staff : staffForCustomers(customers));
  if (staff < 4) throw new UsageError('--staff: must be at least 4 (the WeCom emulator has four staff members)');
  const concurrencies =
    values.concurrency === undefined
      ? [...base.concurrencies]
      : values.concurrency.split(',').map((raw) => positiveInteger('concurrency', raw.trim(), 1));
  if (concurrencies.some((value) => value > 512)) throw new UsageError('--concurrency: must be at most 512');
  const lighthouseOnly = values['lighthouse-only'];
  if (lighthouseOnly && values['no-lighthouse']) throw new UsageError('--lighthouse-only: cannot be combined with --no-lighthouse');
  if (lighthouseOnly && values.endpoints !== undefined) throw new UsageError('--lighthouse-only: measures no endpoints; drop --endpoints');
  const datasetOnly = values['dataset-only'];
  if (datasetOnly && values.engines !== undefined && values.engines.trim() !== 'postgres')
    throw new UsageError('--dataset-only: loads the PostgreSQL dataset only; drop --engines or pass --engines postgres');
  const databaseUrl = values['database-url'] ?? defaultDatabaseUrl(customers);
  if (!/^postgres(ql)?:\/\//.test(databaseUrl)) throw new UsageError(`--database-url: must be a postgres:// URL, got "${databaseUrl}"`);
  const readUrl = values['read-url'] ?? null;
  if (readUrl !== null && !readUrl.split(',').every((url) => /^postgres(ql)?:\/\//.test(url.trim())))
    throw new UsageError(`--read-url: must be postgres:// URLs separated by commas, got "${readUrl}"`);
  return {
    customers,
    pgliteCustomers: positiveInteger('pglite-customers', values['pglite-customers'], base.pgliteCustomers),
    seed,
    asOf,
    staff,
    databaseUrl,
    /** PostgreSQL: the servers' DATABASE_READ_URL (standbys serving page reads; the SQL replay stays on the primary). */
    readUrl,
    reseed: values.reseed,
    // --dataset-only has already refused other engines, and --lighthouse-only any endpoint.
    engines: listOf('engines', values.engines, ENGINES, datasetOnly ? ['postgres'] : ENGINES),
    scenarios: listOf('endpoints', values.endpoints, SCENARIO_NAMES, lighthouseOnly ? [] : SCENARIO_NAMES),
    concurrencies,
    durationMs: seconds('duration', values.duration, base.durationSeconds),
    warmupMs: seconds('warmup', values.warmup, base.warmupSeconds),
    paramsPerEndpoint: positiveInteger('params', values.params, base.params),
    poolMax: positiveInteger('pool', values.pool, 10),
    /** Where the report goes; null: docs/ for a full run. */
    outDir: values.out ?? null,
    lighthouse: !values['no-lighthouse'],
    lighthouseRuns: positiveInteger('lighthouse-runs', values['lighthouse-runs'], base.lighthouseRuns),
    webDist: values['web-dist'] ?? null,
    quick,
    keepPglite: values['keep-pglite'],
    /** PostgreSQL: API server processes side by side, the load balanced by connection (ADR 0051); PGlite is always 1. */
    replicas: positiveInteger('replicas', values.replicas, FULL_RUN.replicas),
    explain: values.explain && !lighthouseOnly,
    fixedRate: !values['no-fixed-rate'] && !lighthouseOnly,
    /** The warm-cache row: a rotation through `paramsPerEndpoint` repeated inputs, at c16. */
    warm: !values['no-warm'] && !lighthouseOnly,
    lighthouseOnly,
    datasetOnly,
  };
}

/** Only a run with the documented parameters may write docs/benchmarks/results.md. */
export function isFullRun(options: BenchOptions): boolean {
  return (
    !options.quick &&
    options.customers === FULL_RUN.customers &&
    options.pgliteCustomers === FULL_RUN.pgliteCustomers &&
    options.seed === FULL_RUN.seed &&
    options.asOf === FULL_RUN.asOf &&
    options.engines.length === 2 &&
    options.scenarios.length === SCENARIO_NAMES.length &&
    options.concurrencies.join(',') === FULL_RUN.concurrencies.join(',') &&
    options.replicas === FULL_RUN.replicas &&
    options.readUrl === null &&
    options.durationMs >= FULL_RUN.durationSeconds * 1000
  );
}
