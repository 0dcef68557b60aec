import {
  apiOverSql,
  motVerdict,
  p95Verdict,
  ratioVerdict,
  TARGETS,
  type CellResult,
  type Engine,
  type FixedRateResult,
  type MotSweepFigures,
} from './targets';
import type { describeMachine } from './machine';

export interface DatasetSummary {
  engine: Engine;
  customers: number;
  /** What the run did to get it: reused, adopted or seeded, and why. */
  provenance: string;
  seedMs: number | null;
  staffUserId: string;
  staffCustomers: number;
  /** Staff members the generator spread the customers over (absent in older reports, as is the size). */
  staff?: number;
  /** PostgreSQL: pg_database_size after the load. */
  databaseBytes?: number;
  /** PostgreSQL: trades, money movements and transfers, from the planner's row counts after ANALYZE. */
  historyRows?: number;
}

export type LighthouseOutcome =
  | {
      engine: Engine;
      /** The median run's score: Lighthouse's own advice for a variable measurement. */
      score: number;
      metrics: Record<string, number>;
      reportPath?: string | undefined;
      /** Every run's score and metrics, in the order they ran (absent in older reports). */
      runScores?: number[];
      runMetrics?: Array<Record<string, number>>;
    }
  | { engine: Engine | null; skipped: string };

export interface BenchReport {
  startedAt: string;
  elapsedMs: number;
  command: string;
  settings: {
    durationMs: number;
    warmupMs: number;
    paramsPerEndpoint: number;
    poolMax: number;
    concurrencies: number[];
    seed?: number;
    /** PostgreSQL's API server processes (absent in older reports: one). */
    replicas?: number;
    /** PostgreSQL: standbys served the page reads (DATABASE_READ_URL), passwords hidden; absent: the primary alone. */
    readFrom?: string;
  };
  machine: Awaited<ReturnType<typeof describeMachine>>;
  datasets: DatasetSummary[];
  cells: CellResult[];
  /** Fixed-arrival-rate cells (absent in older reports). */
  fixedRate?: FixedRateResult[];
  sweeps: MotSweepFigures[];
  lighthouse: LighthouseOutcome | null;
}

export const LIGHTHOUSE_TARGET = 95;

/** The run with the median score (the lower middle of an even count), so its metrics go with the score reported. */
export function medianRun<Run extends { score: number }>(runs: Run[]): Run {
  if (runs.length === 0) throw new Error('no Lighthouse run to take the median of');
  const sorted = [...runs].sort((a, b) => a.score - b.score);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}
export const GENERATED_START = '<!-- bench:generated:start -->';
export const GENERATED_END = '<!-- bench:generated:end -->';

/** Milliseconds with the precision that matters at their size; a dash for no data. */
export function formatMs(value: number): string {
  if (!Number.isFinite(value)) return '—';
  if (value < 10) return value.toFixed(2);
  if (value < 100) return value.toFixed(1);
  return value.toFixed(0);
}

const formatRate = (value: number) => (Number.isFinite(value) ? value.toFixed(0) : '—');
const formatRatio = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : '—');
export const engineLabel = (engine: Engine, customers: number) =>
  `${engine === 'postgres' ? 'PostgreSQL' : 'PGlite'}, ${customers.toLocaleString('en')} customers`;

/** A table's column: its heading in the terminal, its heading in Markdown, and its value in a row. */
type Column<Row> = readonly [terminal: string, markdown: string, value: (row: Row) => string];

const CELL_COLUMNS: Column<CellResult>[] = [
  ['endpoint', 'endpoint', (cell) => cell.endpoint],
  ['c', 'c', (cell) => String(cell.concurrency)],
  ['p50', 'p50 ms', (cell) => formatMs(cell.api.latency.p50)],
  ['p95', 'p95 ms', (cell) => formatMs(cell.api.latency.p95)],
  ['p99', 'p99 ms', (cell) => formatMs(cell.api.latency.p99)],
  ['req/s', 'req/s', (cell) => formatRate(cell.api.requestsPerSecond)],
  [
    'errors',
    'errors',
    (cell) => (cell.api.errors + cell.sql.errors > 0 ? `${cell.api.errors}${cell.sql.errors ? ` (+${cell.sql.errors} SQL)` : ''}` : '0'),
  ],
  ['repeats', 'repeated params', (cell) => (cell.repeats === undefined ? '—' : String(cell.repeats))],
  ['prepared', 'statements prepared', (cell) => (cell.preparedShare === undefined ? '—' : `${Math.round(cell.preparedShare * 100)}%`)],
  ['SQL p50', 'SQL p50 ms', (cell) => formatMs(cell.sql.latency.p50)],
  ['SQL p95', 'SQL p95 ms', (cell) => formatMs(cell.sql.latency.p95)],
  ['API/SQL', 'API/SQL p50', (cell) => formatRatio(apiOverSql(cell))],
  ['p95≤50', 'p95 ≤ 50 ms', (cell) => p95Verdict(cell) ?? ''],
  ['API≤1.5×SQL+1', 'API ≤ 1.5×SQL+1 ms', ratioVerdict],
];

/** Fixed-width columns for the terminal; numbers right-aligned. */
function consoleTable(header: readonly string[], body: string[][]): string {
  const rows = [header.slice(), ...body];
  const widths = header.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) =>
    row.map((value, column) => (column === 0 ? value.padEnd(widths[column]!) : value.padStart(widths[column]!))).join('  ');
  return [line(rows[0]!), widths.map((width) => '─'.repeat(width)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

/** p99 ≤ 100 ms at half the capacity, on PostgreSQL: the fixed-rate target (ADRs 0032–0037; null where it does not apply). */
export function fixedRateVerdict(result: FixedRateResult): 'PASS' | 'MISS' | null {
  if (result.engine !== 'postgres' || result.group === 'mot' || result.group === 'warm' || result.fraction !== 0.5) return null;
  return result.api.errors === 0 && result.api.latency.p99 <= TARGETS.fixedRateP99Ms ? 'PASS' : 'MISS';
}

const FIXED_RATE_COLUMNS: Column<FixedRateResult>[] = [
  ['endpoint', 'endpoint', (result) => result.endpoint],
  [
    'of capacity',
    'rate (share of closed-loop req/s)',
    (result) => `${Math.round(result.fraction * 100)}% of c${result.capacityConcurrency}`,
  ],
  ['rate/s', 'rate req/s', (result) => formatRate(result.targetRate)],
  ['answered/s', 'answered req/s', (result) => formatRate(result.api.requestsPerSecond)],
  ['p50', 'p50 ms', (result) => formatMs(result.api.latency.p50)],
  ['p95', 'p95 ms', (result) => formatMs(result.api.latency.p95)],
  ['p99', 'p99 ms', (result) => formatMs(result.api.latency.p99)],
  ['errors', 'errors', (result) => String(result.api.errors)],
  ['repeats', 'repeated params', (result) => (result.repeats === undefined ? '—' : String(result.repeats))],
  ['p99≤100', 'p99 ≤ 100 ms', (result) => fixedRateVerdict(result) ?? ''],
];

/** A Markdown table, the first column left-aligned and the rest (figures) right-aligned. */
export const markdownTable = (header: readonly string[], body: string[][]) =>
  [header, header.map((_, index) => (index === 0 ? ':--' : '--:')), ...body].map((row) => `| ${row.join(' | ')} |`).join('\n');

/** The rows for the terminal, or (`markdown`) for the report. */
function renderTable<Row>(columns: readonly Column<Row>[], rows: readonly Row[], markdown: boolean) {
  const header = columns.map((column) => column[markdown ? 1 : 0]);
  const body = rows.map((row) => columns.map((column) => column[2](row)));
  return markdown ? markdownTable(header, body) : consoleTable(header, body);
}

export const renderCellTable = (cells: readonly CellResult[], markdown = false) => renderTable(CELL_COLUMNS, cells, markdown);
export const renderFixedRateTable = (results: readonly FixedRateResult[], markdown = false) =>
  renderTable(FIXED_RATE_COLUMNS, results, markdown);

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Grouped bars of API p95 at the target concurrency, a group per endpoint and a bar per database, the target dashed. */
export function renderP95Chart(cells: readonly CellResult[], labels: Partial<Record<Engine, string>> = {}): string {
  const atTarget = cells.filter((cell) => cell.concurrency === TARGETS.p95Concurrency && cell.group !== 'warm');
  const endpoints = [...new Set(atTarget.map((cell) => cell.endpoint))];
  const engines = (['postgres', 'pglite'] as const).filter((engine) => atTarget.some((cell) => cell.engine === engine));
  const colour: Record<Engine, string> = { postgres: '#1677ff', pglite: '#95de64' };
  const values = atTarget.map((cell) => cell.api.latency.p95).filter(Number.isFinite);
  const top = niceCeiling(Math.max(TARGETS.p95Ms * 1.2, ...values) * 1.08);
  const plot = { left: 56, top: 48, height: 240, groupWidth: 30 + 22 * Math.max(engines.length, 1) };
  // The right margin holds the target line's label, clear of the bars.
  const plotRight = plot.left + Math.max(endpoints.length, 1) * plot.groupWidth + 8;
  const width = plotRight + 84;
  const height = plot.top + plot.height + 110;
  const y = (value: number) => plot.top + plot.height - (Math.min(value, top) / top) * plot.height;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="11">`,
    `<title>API p95 latency at concurrency ${TARGETS.p95Concurrency}</title>`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${plot.left}" y="20" font-size="14" font-weight="600">API p95 at concurrency ${TARGETS.p95Concurrency} (ms)</text>`,
  ];
  for (const [index, engine] of engines.entries()) {
    const x = plot.left + index * 190;
    parts.push(
      `<rect x="${x}" y="29" width="10" height="10" fill="${colour[engine]}"/>`,
      `<text x="${x + 14}" y="38">${escapeXml(labels[engine] ?? engine)}</text>`,
    );
  }
  for (let tick = 0; tick <= 4; tick++) {
    const value = (top / 4) * tick;
    parts.push(
      `<line x1="${plot.left}" x2="${plotRight}" y1="${y(value)}" y2="${y(value)}" stroke="#eee"/>`,
      `<text x="${plot.left - 6}" y="${y(value) + 4}" text-anchor="end" fill="#666">${Number.isInteger(value) ? value : formatMs(value)}</text>`,
    );
  }
  for (const [group, endpoint] of endpoints.entries()) {
    const groupX = plot.left + group * plot.groupWidth + 15;
    for (const [index, engine] of engines.entries()) {
      const cell = atTarget.find((candidate) => candidate.endpoint === endpoint && candidate.engine === engine);
      if (!cell) continue;
      const value = cell.api.latency.p95;
      const barX = groupX + index * 22;
      const barY = Number.isFinite(value) ? y(value) : plot.top + plot.height;
      const failed = cell.api.errors > 0;
      parts.push(
        `<rect x="${barX}" y="${barY.toFixed(1)}" width="18" height="${(plot.top + plot.height - barY).toFixed(1)}" fill="${colour[engine]}"${failed ? ' stroke="#cf1322" stroke-width="2"' : ''}><title>${escapeXml(`${endpoint} · ${engine}: p95 ${formatMs(value)} ms${failed ? `, ${cell.api.errors} errors` : ''}`)}</title></rect>`,
        `<text x="${barX + 9}" y="${(barY - 3).toFixed(1)}" text-anchor="middle" font-size="9" fill="#333">${Number.isFinite(value) ? formatMs(value) : 'n/a'}</text>`,
      );
    }
    const labelX = groupX + (engines.length * 22) / 2;
    const labelY = plot.top + plot.height + 12;
    parts.push(
      `<text x="${labelX}" y="${labelY}" text-anchor="end" transform="rotate(-40 ${labelX} ${labelY})">${escapeXml(endpoint)}</text>`,
    );
  }
  const targetY = y(TARGETS.p95Ms);
  parts.push(
    `<line x1="${plot.left}" x2="${plotRight}" y1="${targetY}" y2="${targetY}" stroke="#cf1322" stroke-width="1.5" stroke-dasharray="6 4"/>`,
    `<text x="${plotRight + 4}" y="${targetY + 4}" fill="#cf1322">target ${TARGETS.p95Ms} ms</text>`,
    `<line x1="${plot.left}" x2="${plot.left}" y1="${plot.top}" y2="${plot.top + plot.height}" stroke="#999"/>`,
    '</svg>',
  );
  return parts.join('\n') + '\n';
}

/** 1, 2 or 5 times a power of ten, at or above `value`: round axis ends. */
export function niceCeiling(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((step) => step * power).find((candidate) => candidate >= value) ?? 10 * power;
}

/** `n of m PASS` (`noun` after m), then the misses named, or a full stop. */
function tally<Row>(rows: readonly Row[], verdict: (row: Row) => string | null, name: (row: Row) => string, noun = ''): string {
  const misses = rows.filter((row) => verdict(row) === 'MISS');
  return `${rows.length - misses.length} of ${rows.length}${noun} PASS${misses.length ? `; MISS: ${misses.map(name).join(', ')}` : '.'}`;
}

function summaryLines(report: BenchReport): string[] {
  const lines: string[] = [];
  const judged = report.cells.filter((cell) => p95Verdict(cell) !== null);
  lines.push(
    `- **Search and client detail p95 ≤ ${TARGETS.p95Ms} ms at c${TARGETS.p95Concurrency} (PostgreSQL):** ` +
      (judged.length === 0
        ? 'not measured in this run.'
        : tally(
            judged,
            p95Verdict,
            (cell) => `${cell.endpoint} (${formatMs(cell.api.latency.p95)} ms${cell.api.errors ? `, ${cell.api.errors} errors` : ''})`,
          )),
  );
  const fixedJudged = (report.fixedRate ?? []).filter((result) => fixedRateVerdict(result) !== null);
  if (fixedJudged.length)
    lines.push(
      `- **Fixed arrival rate at 50% of the c${TARGETS.p95Concurrency} capacity, p99 ≤ ${TARGETS.fixedRateP99Ms} ms (PostgreSQL):** ` +
        tally(fixedJudged, fixedRateVerdict, (result) => `${result.endpoint} (${formatMs(result.api.latency.p99)} ms)`),
    );
  for (const engine of ['postgres', 'pglite'] as const) {
    const cells = report.cells.filter((cell) => cell.engine === engine && cell.group !== 'warm');
    if (cells.length === 0) continue;
    lines.push(
      `- **API p50 ≤ ${TARGETS.apiOverSqlRatio} × SQL p50 + ${TARGETS.apiOverSqlSlackMs} ms (${engine === 'postgres' ? 'PostgreSQL' : 'PGlite'}):** ` +
        tally(cells, ratioVerdict, (cell) => `${cell.endpoint} c${cell.concurrency}`, ' cells'),
    );
    // At c1 the server's own overhead; above, each request also waits for CPU the database shares, which the replay does not.
    const alone = cells.filter((cell) => cell.concurrency === 1);
    const queued = cells.filter((cell) => cell.concurrency > 1);
    const passed = (group: CellResult[]) => group.filter((cell) => ratioVerdict(cell) === 'PASS').length;
    if (alone.length && queued.length)
      lines.push(
        `  - at c1 (the server's overhead alone): ${passed(alone)} of ${alone.length} PASS; at c${[...new Set(queued.map((cell) => cell.concurrency))].join('/c')} (its CPU queued on the cores the database shares): ${passed(queued)} of ${queued.length} PASS.`,
      );
  }
  for (const sweep of report.sweeps) {
    const verdict = motVerdict(sweep);
    lines.push(
      `- **MOT daily sweep${verdict ? ` ≤ ${TARGETS.motSweepMs / 1000} s` : ''} (${engineLabel(sweep.engine, sweep.customers)}):** first sweep ${(sweep.firstMs / 1000).toFixed(1)} s, re-run ${(sweep.rerunMs / 1000).toFixed(1)} s${verdict ? ` — ${verdict}` : ''}.`,
    );
  }
  const lighthouse = report.lighthouse;
  if (lighthouse)
    lines.push(
      'score' in lighthouse
        ? `- **Lighthouse mobile performance ≥ ${LIGHTHOUSE_TARGET} (client list, cold cache):** ${lighthouse.score} — ${lighthouse.score >= LIGHTHOUSE_TARGET ? 'PASS' : 'MISS'}` +
            (lighthouse.metrics.lcpMs !== undefined
              ? `; LCP ${formatMs(lighthouse.metrics.lcpMs)} ms, TBT ${formatMs(lighthouse.metrics.tbtMs ?? Number.NaN)} ms.`
              : '.')
        : `- **Lighthouse:** not run (${lighthouse.skipped}).`,
    );
  const sizeNote = report.datasets.find((dataset) => dataset.engine === 'postgres' && dataset.customers !== TARGETS.targetCustomers);
  if (sizeNote)
    lines.push(
      `- _The PostgreSQL database had ${sizeNote.customers.toLocaleString('en')} customers, not ${TARGETS.targetCustomers.toLocaleString('en')}: a smoke run, not evidence for the targets._`,
    );
  return lines;
}

/**
 * Where the cores went at the target concurrency and at fixed rates: CPU per request sets the throughput and so the
 * latency; a fixed-rate run whose load generator costs much more than the closed loop's measured the load generator.
 */
export function cpuShareSection(cells: readonly CellResult[], fixedRate: readonly FixedRateResult[] = []): string[] {
  const measured = [
    ...cells
      .filter((cell) => cell.concurrency === TARGETS.p95Concurrency && cell.cpu)
      .map((cell) => ({ ...cell, run: `c${cell.concurrency}` })),
    ...fixedRate.filter((result) => result.cpu).map((result) => ({ ...result, run: `${Math.round(result.fraction * 100)}% fixed rate` })),
  ];
  if (measured.length === 0) return [];
  const ms = (value: number | null) => (value === null ? 'n/a' : value.toFixed(2));
  return [
    `### Where the CPU went at concurrency ${TARGETS.p95Concurrency} and at fixed rates`,
    '',
    "CPU time per completed request, read from `/proc` around each API run: the server process, the local PostgreSQL's processes",
    '(n/a for PGlite, which runs inside the server) and the load generator (the benchmark itself). At concurrency 16 a request',
    'waits for about 16 ÷ req/s, and req/s is at most the cores ÷ the CPU per request.',
    '',
    '| database | endpoint | run | req/s | server ms | PostgreSQL ms | load generator ms | cores busy |',
    '| :-- | :-- | :-- | --: | --: | --: | --: | --: |',
    ...measured.map(
      (row) =>
        `| ${row.engine === 'postgres' ? 'PostgreSQL' : 'PGlite'} | ${row.endpoint} | ${row.run} | ${formatRate(row.api.requestsPerSecond)} | ${ms(row.cpu!.serverMs)} | ${ms(row.cpu!.postgresMs)} | ${ms(row.cpu!.loadGeneratorMs)} | ${row.cpu!.coresBusy.toFixed(2)} |`,
    ),
    '',
  ];
}

/** The part of docs/benchmarks/results.md the benchmark owns (between the generated markers). */
export function renderGeneratedSection(report: BenchReport, chartPath: string): string {
  const { machine, settings } = report;
  const out: string[] = [GENERATED_START];
  out.push(
    `_Written by \`${report.command}\` on ${report.startedAt.replace('T', ' ').slice(0, 16)} UTC (run took ${(report.elapsedMs / 60_000).toFixed(1)} min). Everything between these markers is regenerated; edit outside them._`,
    '',
    '### Summary against the targets',
    '',
    ...summaryLines(report),
    '',
    '### Machine',
    '',
    '| | |',
    '| :-- | :-- |',
    `| CPU | ${machine.cpu}, ${machine.cores} cores |`,
    `| RAM | ${machine.ramGb.toFixed(1)} GB |`,
    `| OS | ${machine.os} |`,
    `| Node.js | ${machine.node} |`,
    `| PostgreSQL | ${machine.postgresVersion ?? 'not used in this run'} |`,
    ...(Object.keys(machine.postgresSettings).length
      ? [
          `| PostgreSQL settings | ${Object.entries(machine.postgresSettings)
            .map(([key, value]) => `${key}=${value}`)
            .join(', ')} |`,
        ]
      : []),
    `| Load | ${settings.durationMs / 1000} s per cell after ${settings.warmupMs / 1000} s warm-up; fresh parameters for every request${settings.seed !== undefined ? ` (seed ${settings.seed})` : ''}, and up to ${settings.paramsPerEndpoint} repeated parameter sets per endpoint in the warm-cache row; ${(settings.replicas ?? 1) > 1 ? `PostgreSQL: ${settings.replicas} API server processes, each cell's connections spread over them; ` : ''}${settings.readFrom ? `page reads served by the standby ${settings.readFrom} (the SQL replay runs on the primary); ` : ''}server and SQL replay pool ${settings.poolMax} connections (per server process); concurrency ${settings.concurrencies.join(', ')} |`,
    '',
    '### Datasets',
    '',
    '| database | how it was prepared | signed in as |',
    '| :-- | :-- | :-- |',
    ...report.datasets.map(
      (dataset) =>
        `| ${engineLabel(dataset.engine, dataset.customers)} | ${dataset.provenance}${dataset.seedMs !== null ? ` (${(dataset.seedMs / 1000).toFixed(0)} s)` : ''} | \`${dataset.staffUserId}\` (${dataset.staffCustomers.toLocaleString('en')} customers) |`,
    ),
    '',
    '### API p95 at concurrency 16',
    '',
    `![API p95 latency per endpoint at concurrency ${TARGETS.p95Concurrency}, with the ${TARGETS.p95Ms} ms target](${chartPath})`,
    '',
  );
  for (const dataset of report.datasets) {
    const cells = report.cells.filter((cell) => cell.engine === dataset.engine);
    if (cells.length === 0) continue;
    const honest = cells.filter((cell) => cell.group !== 'warm');
    const warm = cells.filter((cell) => cell.group === 'warm');
    const fixedRate = (report.fixedRate ?? []).filter((result) => result.engine === dataset.engine);
    out.push(`### ${engineLabel(dataset.engine, dataset.customers)}`, '', renderCellTable(honest, true), '');
    if (fixedRate.length) {
      out.push(
        `Fixed arrival rate (each latency from the request's intended send time), at shares of the closed loop's req/s:`,
        '',
        renderFixedRateTable(fixedRate, true),
        '',
      );
      const failed = fixedRate.filter((result) => result.api.errorSamples.length);
      for (const result of failed)
        out.push(`- ${result.endpoint} at ${Math.round(result.fraction * 100)}%: ${result.api.errorSamples.join('; ')}`);
      if (failed.length) out.push('');
    }
    if (warm.length)
      out.push(
        'Warm cache (a rotation through repeated parameters, as the benchmark ran before fresh ones; no target):',
        '',
        renderCellTable(warm, true),
        '',
      );
    const failures = cells.filter((cell) => cell.api.errorSamples.length || cell.sql.errorSamples.length);
    for (const cell of failures)
      out.push(
        `- ${cell.endpoint} c${cell.concurrency}: ${[...cell.api.errorSamples, ...cell.sql.errorSamples.map((sample) => `SQL: ${sample}`)].join('; ')}`,
      );
    if (failures.length) out.push('');
  }
  out.push(...cpuShareSection(report.cells, report.fixedRate ?? []));
  if (report.sweeps.length) {
    out.push(
      '### MOT daily sweep',
      '',
      '| database | as of | first sweep | events raised | re-run (nothing new) | slowest rules (first sweep) |',
      '| :-- | :-- | --: | --: | --: | :-- |',
      ...report.sweeps.map(
        (sweep) =>
          `| ${engineLabel(sweep.engine, sweep.customers)} | ${sweep.asOf} | ${(sweep.firstMs / 1000).toFixed(1)} s | ${sweep.firstInserted.toLocaleString('en')} | ${(sweep.rerunMs / 1000).toFixed(1)} s | ${Object.entries(
            sweep.ruleMs,
          )
            .sort((a, b) => b[1] - a[1])
            .slice(0, 4)
            .map(([rule, ms]) => `${rule} ${(ms / 1000).toFixed(1)} s`)
            .join(', ')} |`,
      ),
      '',
    );
  }
  const lighthouse = report.lighthouse;
  if (lighthouse) {
    out.push('### Lighthouse (mobile, client list)', '');
    if ('score' in lighthouse) {
      out.push(
        `Performance score **${lighthouse.score}** (target ≥ ${LIGHTHOUSE_TARGET}) against ${lighthouse.engine === 'postgres' ? 'PostgreSQL' : 'PGlite'}` +
          (lighthouse.runScores && lighthouse.runScores.length > 1
            ? `: the median of ${lighthouse.runScores.length} runs (${lighthouse.runScores.join(', ')}); the metrics below are that run's.`
            : '.'),
        '',
        '| metric | value |',
        '| :-- | --: |',
        ...Object.entries(lighthouse.metrics).map(([name, value]) => `| ${name} | ${Number.isInteger(value) ? value : value.toFixed(3)} |`),
        '',
      );
      if (lighthouse.runMetrics && lighthouse.runMetrics.length > 1)
        out.push(
          `Every run (cold cache: a fresh browser profile, its HTTP cache emptied after the sign-in): ${lighthouse.runMetrics
            .map((metrics, index) => `${lighthouse.runScores?.[index] ?? '?'} (LCP ${metrics.lcpMs} ms, TBT ${metrics.tbtMs} ms)`)
            .join('; ')}.`,
          '',
        );
      if (lighthouse.reportPath) out.push(`Full report: \`${lighthouse.reportPath}\` (not committed).`, '');
    } else out.push(`Not run: ${lighthouse.skipped}.`, '');
  }
  out.push(GENERATED_END);
  return out.join('\n');
}

/** Puts the generated section into the document, between its markers, or else before the changes section. */
export function spliceGenerated(existing: string | null, generated: string, template: string): string {
  const document = existing ?? template;
  const start = document.indexOf(GENERATED_START);
  const end = document.indexOf(GENERATED_END);
  if (start !== -1 && end > start) return document.slice(0, start) + generated + document.slice(end + GENERATED_END.length);
  const changes = document.indexOf('\n## Changes and before/after');
  if (changes !== -1) return `${document.slice(0, changes)}\n${generated}\n${document.slice(changes)}`;
  return `${document.trimEnd()}\n\n${generated}\n`;
}
