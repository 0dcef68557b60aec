import { engineLabel, fixedRateVerdict, formatMs, markdownTable, renderCellTable, renderFixedRateTable, type BenchReport } from './report';
import { p95Verdict, TARGETS, type CellResult, type FixedRateResult } from './targets';

/**
 * The growth from 1M for every cell (ADR 0052 (standbys) / ADR 0053 (partitions)): two PostgreSQL runs of the same
 * benchmark at two sizes, cell by cell, in docs/benchmarks/scale.md; the runs' results.json are kept in scale/ beside it.
 */
export const SCALE_START = '<!-- bench:scale:start -->';
export const SCALE_END = '<!-- bench:scale:end -->';

/** Each PostgreSQL row of the base run with the grown run's row of the same key, if it has one. */
function paired<Row extends { engine: string }>(base: readonly Row[], grown: readonly Row[], key: (row: Row) => string) {
  const grownRows = new Map(grown.filter((row) => row.engine === 'postgres').map((row) => [key(row), row]));
  return base.filter((row) => row.engine === 'postgres').map((row) => [row, grownRows.get(key(row))] as const);
}

/** `base → grown` of one figure, a dash where the grown run has no such row. */
const beside = <Row>(row: Row, other: Row | undefined, figure: (row: Row) => string) => `${figure(row)} → ${other ? figure(other) : '—'}`;

/** "1.23×", or "—" where either side is missing or zero (a cell that failed every request has no latency). */
export function growth(base: number | undefined, grown: number | undefined): string {
  if (base === undefined || grown === undefined || !Number.isFinite(base) || !Number.isFinite(grown) || base <= 0) return '—';
  return `${(grown / base).toFixed(2)}×`;
}

const millions = (customers: number) =>
  customers % 1_000_000 === 0 ? `${customers / 1_000_000}M` : `${(customers / 1_000_000).toFixed(1)}M`;

const postgresOf = (report: BenchReport, which: string) => {
  const dataset = report.datasets.find((candidate) => candidate.engine === 'postgres');
  if (!dataset) throw new Error(`${which}: the run has no PostgreSQL dataset`);
  return dataset;
};

/** The two runs must differ in their dataset's size only, or the ratios measure the other difference. */
export function assertComparable(base: BenchReport, grown: BenchReport): void {
  const baseSize = postgresOf(base, 'the first run').customers;
  const grownSize = postgresOf(grown, 'the second run').customers;
  if (!(grownSize > baseSize)) throw new Error(`the second run must be the larger dataset (${baseSize} then ${grownSize})`);
  const settings = (report: BenchReport) => {
    const { durationMs, warmupMs, poolMax, concurrencies, seed, replicas } = report.settings;
    return JSON.stringify({
      durationMs,
      warmupMs,
      poolMax,
      concurrencies,
      seed,
      replicas: replicas ?? 1,
      standby: Boolean(report.settings.readFrom),
    });
  };
  if (settings(base) !== settings(grown))
    throw new Error(`the runs differ in more than their size: ${settings(base)} against ${settings(grown)}`);
}

function datasetRows(report: BenchReport): string {
  const dataset = postgresOf(report, 'run');
  const sweep = report.sweeps.find((candidate) => candidate.engine === 'postgres');
  const gb = (bytes: number | undefined) => (bytes === undefined ? '—' : `${(bytes / 1e9).toFixed(1)} GB`);
  return [
    engineLabel('postgres', dataset.customers),
    dataset.staff === undefined ? '—' : String(dataset.staff),
    `\`${dataset.staffUserId}\` (${dataset.staffCustomers.toLocaleString('en')})`,
    dataset.historyRows === undefined ? '—' : `${(dataset.historyRows / 1e6).toFixed(1)} M`,
    gb(dataset.databaseBytes),
    report.settings.readFrom ? 'standby' : 'primary',
    sweep ? `${(sweep.firstMs / 1000).toFixed(1)} s / ${(sweep.rerunMs / 1000).toFixed(1)} s` : '—',
    `${report.startedAt.slice(0, 16).replace('T', ' ')} UTC, ${(report.elapsedMs / 60_000).toFixed(0)} min`,
  ].join(' | ');
}

/** Every closed-loop cell (and warm-cache cell) of the base run beside the same cell of the grown run. */
function cellGrowthTable(base: BenchReport, grown: BenchReport, warm: boolean): string {
  const cellKey = (cell: CellResult) => `${cell.endpoint} c${cell.concurrency}`;
  const rows = paired(base.cells, grown.cells, cellKey)
    .filter(([cell]) => (cell.group === 'warm') === warm)
    .map(([cell, other]) => {
      const pair = (pick: (c: CellResult) => number) => beside(cell, other, (c) => formatMs(pick(c)));
      return [
        cell.endpoint,
        String(cell.concurrency),
        pair((c) => c.api.latency.p50),
        pair((c) => c.api.latency.p95),
        growth(cell.api.latency.p95, other?.api.latency.p95),
        pair((c) => c.api.latency.p99),
        beside(cell, other, (c) => c.api.requestsPerSecond.toFixed(0)),
        pair((c) => c.sql.latency.p95),
        growth(cell.sql.latency.p95, other?.sql.latency.p95),
        other ? `${other.api.errors + other.sql.errors}` : '—',
        (other && p95Verdict(other)) ?? '',
      ];
    });
  return markdownTable(
    [
      'endpoint',
      'c',
      'p50 ms',
      'p95 ms',
      'p95 growth',
      'p99 ms',
      'req/s',
      'SQL p95 ms',
      'SQL p95 growth',
      'errors (larger)',
      `p95 ≤ ${TARGETS.p95Ms} ms (larger)`,
    ],
    rows,
  );
}

function fixedRateGrowthTable(base: BenchReport, grown: BenchReport): string | null {
  const fixedKey = (result: FixedRateResult) => `${result.endpoint} ${result.fraction}`;
  const rows = paired(base.fixedRate ?? [], grown.fixedRate ?? [], fixedKey).map(([result, other]) => [
    result.endpoint,
    `${Math.round(result.fraction * 100)}%`,
    beside(result, other, (r) => r.targetRate.toFixed(0)),
    beside(result, other, (r) => formatMs(r.api.latency.p95)),
    beside(result, other, (r) => formatMs(r.api.latency.p99)),
    growth(result.api.latency.p99, other?.api.latency.p99),
    other ? String(other.api.errors) : '—',
    (other && fixedRateVerdict(other)) ?? '',
  ]);
  if (rows.length === 0) return null;
  return markdownTable(
    ['endpoint', 'rate', 'rate req/s', 'p95 ms', 'p99 ms', 'p99 growth', 'errors (larger)', `p99 ≤ ${TARGETS.fixedRateP99Ms} ms (larger)`],
    rows,
  );
}

/** One line of the p95 budget's verdicts for a run, as the generated summary counts them. */
function p95Summary(report: BenchReport): string {
  const judged = report.cells.filter((cell) => p95Verdict(cell) !== null);
  const missed = judged.filter((cell) => p95Verdict(cell) === 'MISS');
  return `${judged.length - missed.length} of ${judged.length}${missed.length ? ` (MISS: ${missed.map((cell) => `${cell.endpoint} ${formatMs(cell.api.latency.p95)} ms`).join(', ')})` : ''}`;
}

export function renderScaleSection(base: BenchReport, grown: BenchReport, sources: { base: string; grown: string }): string {
  assertComparable(base, grown);
  const baseSize = postgresOf(base, 'base').customers;
  const grownSize = postgresOf(grown, 'grown').customers;
  // The runs' machines, said above the tables when they differ: a growth figure then mixes size and machine.
  const machineOf = (report: BenchReport) => `${report.machine.cpu}, ${report.machine.cores} cores`;
  const fixed = fixedRateGrowthTable(base, grown);
  const warm = base.cells.some((cell) => cell.group === 'warm') ? cellGrowthTable(base, grown, true) : null;
  const runTables = (report: BenchReport) => {
    const cells = report.cells.filter((cell) => cell.engine === 'postgres' && cell.group !== 'warm');
    const results = (report.fixedRate ?? []).filter((result) => result.engine === 'postgres');
    return [
      renderCellTable(cells, true),
      '',
      ...(results.length ? ['Fixed arrival rate:', '', renderFixedRateTable(results, true), ''] : []),
    ];
  };
  return [
    SCALE_START,
    `_Written by \`npm run bench:scale -- ${sources.base} ${sources.grown}\` from the two runs' own results; everything between these markers is regenerated._`,
    '',
    `The same benchmark at ${millions(baseSize)} and ${millions(grownSize)} customers: the same seed, cells, durations and concurrencies, ` +
      `${base.settings.replicas ?? 1} API processes, page reads ${base.settings.readFrom ? `on a streaming standby (\`--read-url\`, ${base.settings.readFrom.replace(/\/[^/,]*$/, '/…')}); the SQL replay runs on the primary` : 'on the primary'}. ` +
      "Staff grow with the customers, so the manager measured has a book of the same size at both (the generator's default above 1M): what grows is the database around that book.",
    '',
    ...(machineOf(base) === machineOf(grown)
      ? []
      : [
          `**The two runs had different machines:** ${millions(baseSize)} on ${machineOf(base)}, ${millions(grownSize)} on ${machineOf(grown)}. ` +
            "Each growth figure below is the dataset's growth and the machine's difference together; compare cells with each other, not with 1.00×.",
          '',
        ]),
    '| dataset | staff | signed in as (book) | history rows | database | page reads | MOT sweep first / re-run | run |',
    '| :-- | --: | :-- | --: | --: | :-- | --: | :-- |',
    `| ${datasetRows(base)} |`,
    `| ${datasetRows(grown)} |`,
    '',
    `- **p95 ≤ ${TARGETS.p95Ms} ms at c${TARGETS.p95Concurrency}:** ${millions(baseSize)} ${p95Summary(base)}; ${millions(grownSize)} ${p95Summary(grown)}.`,
    '',
    `#### Growth per cell, ${millions(baseSize)} → ${millions(grownSize)} (closed loop)`,
    '',
    cellGrowthTable(base, grown, false),
    '',
    ...(fixed
      ? [
          `#### Fixed arrival rate, ${millions(baseSize)} → ${millions(grownSize)}`,
          '',
          'Each size at its own closed-loop capacity (the rates differ):',
          '',
          fixed,
          '',
        ]
      : []),
    ...(warm ? [`#### Warm cache, ${millions(baseSize)} → ${millions(grownSize)}`, '', warm, ''] : []),
    `#### ${engineLabel('postgres', grownSize)}, page reads on the standby (the table of the 1M run above, at this size)`,
    '',
    ...runTables(grown),
    `#### ${engineLabel('postgres', baseSize)}, page reads on the standby (the same configuration, for the growth)`,
    '',
    ...runTables(base),
    SCALE_END,
  ].join('\n');
}

/** Replaces the section between the markers, or puts it at the end of the document's heading `under`. */
export function spliceScaleSection(document: string, section: string, under: string): string {
  const start = document.indexOf(SCALE_START);
  const end = document.indexOf(SCALE_END);
  if (start !== -1 && end > start) return document.slice(0, start) + section + document.slice(end + SCALE_END.length);
  const heading = document.indexOf(under);
  if (heading === -1) throw new Error(`docs/benchmarks/scale.md has neither the scale markers nor the heading "${under}"`);
  const lineEnd = document.indexOf('\n', heading);
  const insertAt = lineEnd === -1 ? document.length : lineEnd + 1;
  return `${document.slice(0, insertAt)}\n${section}\n${document.slice(insertAt)}`;
}
