import { describe, expect, it } from 'vitest';
import {
  GENERATED_END,
  GENERATED_START,
  formatMs,
  niceCeiling,
  cpuShareSection,
  fixedRateVerdict,
  renderCellTable,
  renderGeneratedSection,
  renderP95Chart,
  medianRun,
  spliceGenerated,
  type BenchReport,
} from './report';
import { summarize } from './stats';
import { p95Verdict, ratioVerdict, type CellResult, type FixedRateResult, type Measurement } from './targets';

const measured = (latencies: number[], errors = 0, errorSamples: string[] = []): Measurement => ({
  latency: summarize(latencies),
  requests: latencies.length + errors,
  requestsPerSecond: 500,
  errors,
  errorSamples,
});
const cell = (overrides: Partial<CellResult> & { apiMs?: number[]; sqlMs?: number[]; apiErrors?: number }): CellResult => ({
  engine: 'postgres',
  endpoint: 'getProfile',
  group: 'detail',
  concurrency: 16,
  api: measured(overrides.apiMs ?? [3, 3, 3, 3, 20], overrides.apiErrors ?? 0, overrides.apiErrors ? ['HTTP 503 ×2'] : []),
  sql: measured(overrides.sqlMs ?? [2, 2, 2, 2, 9]),
  ...overrides,
});

describe('targets', () => {
  it('judges p95 only for list and detail calls at c16 on PostgreSQL', () => {
    expect(p95Verdict(cell({}))).toBe('PASS');
    expect(p95Verdict(cell({ apiMs: [3, 3, 3, 3, 51] }))).toBe('MISS');
    expect(p95Verdict(cell({ concurrency: 64 }))).toBeNull();
    expect(p95Verdict(cell({ engine: 'pglite' }))).toBeNull();
    expect(p95Verdict(cell({ group: 'mot' }))).toBeNull();
  });

  it('fails a cell with errors however fast it was', () => {
    expect(p95Verdict(cell({ apiErrors: 2 }))).toBe('MISS');
    expect(ratioVerdict(cell({ apiErrors: 2 }))).toBe('MISS');
  });

  it('fails a cell with no successful request (NaN latencies)', () => {
    expect(p95Verdict(cell({ apiMs: [] }))).toBe('MISS');
  });

  it('allows API p50 up to 1.5 × SQL p50 + 1 ms', () => {
    expect(ratioVerdict(cell({ apiMs: [4], sqlMs: [2] }))).toBe('PASS');
    expect(ratioVerdict(cell({ apiMs: [4.01], sqlMs: [2] }))).toBe('MISS');
  });
});

describe('fixed-rate target', () => {
  const result = (overrides: Partial<FixedRateResult> & { p99Ms?: number }): FixedRateResult => ({
    engine: 'postgres',
    endpoint: 'getProfile',
    group: 'detail',
    fraction: 0.5,
    capacityConcurrency: 16,
    targetRate: 1000,
    api: measured([5, 5, 5, overrides.p99Ms ?? 90]),
    ...overrides,
  });

  it('judges p99 ≤ 100 ms at half the capacity, on PostgreSQL, for list and detail calls', () => {
    expect(fixedRateVerdict(result({}))).toBe('PASS');
    expect(fixedRateVerdict(result({ p99Ms: 101 }))).toBe('MISS');
    expect(fixedRateVerdict(result({ fraction: 0.8, p99Ms: 500 }))).toBeNull();
    expect(fixedRateVerdict(result({ engine: 'pglite' }))).toBeNull();
    expect(fixedRateVerdict(result({ group: 'warm' }))).toBeNull();
  });

  it('leaves the warm-cache row out of the p95 target', () => {
    expect(p95Verdict(cell({ group: 'warm', endpoint: 'warm:getProfile' }))).toBeNull();
  });
});

describe('tables', () => {
  const cells = [
    cell({}),
    cell({ endpoint: 'search:name', group: 'list', apiMs: [40, 60, 70], sqlMs: [10, 12, 14] }),
    cell({ endpoint: 'mot:history', group: 'mot', concurrency: 64, apiErrors: 2 }),
  ];

  it('prints every cell with its figures and verdicts, columns aligned', () => {
    const lines = renderCellTable(cells).split('\n');
    expect(lines).toHaveLength(2 + cells.length);
    expect(new Set(lines.map((line) => line.length)).size).toBe(1);
    expect(lines[2]).toMatch(/^getProfile\s+16\s+3\.00\s+20\.0\s+20\.0\s+500\s+0\s+—\s+—\s+2\.00\s+9\.00\s+1\.50×\s+PASS\s+PASS$/);
    expect(lines[3]).toMatch(/search:name .* 60\.0 .* MISS\s+MISS$/);
  });

  it('shows failed requests in the errors column', () => {
    const row = renderCellTable(cells, true).split('\n')[4]!;
    expect(row).toMatch(/^\| mot:history \| 64 \| .* \| 2 \| /);
    expect(row).toMatch(/\| MISS \|$/);
  });

  it('shows the repeated parameters', () => {
    const row = renderCellTable([cell({ repeats: 3 })], true).split('\n')[2]!;
    expect(row).toContain('| 0 | 3 | — |');
  });

  it('formats milliseconds by size and shows missing figures as a dash', () => {
    expect([formatMs(1.234), formatMs(12.34), formatMs(123.4), formatMs(Number.NaN)]).toEqual(['1.23', '12.3', '123', '—']);
  });
});

describe('CPU share', () => {
  const share = { serverMs: 0.9, postgresMs: 0.45, loadGeneratorMs: 0.25, coresBusy: 1.6 };

  it("lists the cells measured at c16, with PGlite's PostgreSQL share as n/a", () => {
    const lines = cpuShareSection([
      cell({ cpu: share }),
      cell({ endpoint: 'getAsset', concurrency: 1, cpu: share }),
      cell({ engine: 'pglite', endpoint: 'stat', cpu: { ...share, postgresMs: null } }),
      cell({ endpoint: 'getTrade' }),
    ]);
    const rows = lines.filter((line) => line.startsWith('| P'));
    expect(rows).toEqual([
      '| PostgreSQL | getProfile | c16 | 500 | 0.90 | 0.45 | 0.25 | 1.60 |',
      '| PGlite | stat | c16 | 500 | 0.90 | n/a | 0.25 | 1.60 |',
    ]);
  });

  it('lists the fixed-rate runs that carry a CPU share after the closed-loop cells', () => {
    const fixed = (fraction: number, cpu?: typeof share): FixedRateResult => ({
      engine: 'postgres',
      endpoint: 'getProfile',
      group: 'detail',
      fraction,
      capacityConcurrency: 16,
      targetRate: 250,
      api: measured([2, 2, 2, 2]),
      ...(cpu ? { cpu } : {}),
    });
    const rows = cpuShareSection([cell({ cpu: share })], [fixed(0.5, { ...share, loadGeneratorMs: 0.4 }), fixed(0.8)]).filter((line) =>
      line.startsWith('| P'),
    );
    expect(rows).toEqual([
      '| PostgreSQL | getProfile | c16 | 500 | 0.90 | 0.45 | 0.25 | 1.60 |',
      '| PostgreSQL | getProfile | 50% fixed rate | 500 | 0.90 | 0.45 | 0.40 | 1.60 |',
    ]);
  });

  it('is left out when no cell carries a CPU share (older results)', () => {
    expect(cpuShareSection([cell({})])).toEqual([]);
  });
});

describe('p95 chart', () => {
  const cells = [
    cell({ endpoint: 'getProfile', apiMs: [10] }),
    cell({ endpoint: 'getProfile', engine: 'pglite', apiMs: [25] }),
    cell({ endpoint: 'search:<name>', group: 'list', apiMs: [80] }),
    cell({ endpoint: 'getAsset', concurrency: 64, apiMs: [500] }),
  ];
  const svg = renderP95Chart(cells, { postgres: 'PostgreSQL & co' });

  it('draws one bar per endpoint and database at c16, ignoring other concurrencies', () => {
    expect(svg.match(/<rect [^>]*width="18"[^>]*fill="#(1677ff|95de64)"/g)).toHaveLength(3);
    expect(svg).not.toContain('getAsset');
  });

  it('scales bars to the axis and draws the 50 ms target line at its height', () => {
    // Axis top: 80 × 1.08 rounded up to 100; plot 240 px tall from y=48, so 50 ms is at y=168.
    expect(svg).toMatch(/<line x1="56" x2="\d+" y1="168" y2="168" stroke="#cf1322"/);
    expect(svg).toContain('>target 50 ms<');
    const bar80 = /<rect x="[\d.]+" y="([\d.]+)" width="18" height="([\d.]+)"[^>]*><title>search:&lt;name&gt; · postgres/.exec(svg);
    expect(Number(bar80![1])).toBeCloseTo(96, 1);
    expect(Number(bar80![2])).toBeCloseTo(192, 1);
  });

  it('is well-formed: labels escaped, every element closed', () => {
    expect(svg).toContain('PostgreSQL &amp; co');
    expect(svg).not.toMatch(/<[^>]*<name>/);
    const opened = (svg.match(/<(rect|text|title|line|svg)\b(?:[^>]*[^/])?>/g) ?? []).length;
    const closed = (svg.match(/<\/(rect|text|title|line|svg)>/g) ?? []).length;
    expect(opened).toBe(closed);
    expect(svg.trim().endsWith('</svg>')).toBe(true);
  });

  it('rounds the axis up to 1, 2 or 5 times a power of ten', () => {
    expect([niceCeiling(0.3), niceCeiling(54), niceCeiling(60), niceCeiling(101), niceCeiling(1000)]).toEqual([0.5, 100, 100, 200, 1000]);
  });
});

describe('benchmarks.md', () => {
  const report: BenchReport = {
    startedAt: '2026-11-21T14:00:00.000Z',
    elapsedMs: 600_000,
    command: 'npm run bench',
    settings: { durationMs: 5000, warmupMs: 1000, paramsPerEndpoint: 100, poolMax: 10, concurrencies: [1, 16, 64] },
    machine: {
      cpu: 'AMD EPYC',
      cores: 2,
      ramGb: 23.4,
      os: 'Linux',
      node: 'v20.20.2',
      postgresVersion: 'PostgreSQL 15.20',
      postgresSettings: { shared_buffers: '128MB' },
    },
    datasets: [
      {
        engine: 'postgres',
        customers: 1_000_000,
        provenance: 'reused',
        seedMs: null,
        staffUserId: 'wongchishing',
        staffCustomers: 125_216,
      },
    ],
    cells: [cell({}), cell({ endpoint: 'search:name', group: 'list', apiMs: [70] })],
    sweeps: [
      {
        engine: 'postgres',
        customers: 1_000_000,
        asOf: '2026-11-20',
        firstMs: 42_000,
        firstInserted: 90_000,
        rerunMs: 20_000,
        ruleMs: { dormant: 9000 },
      },
    ],
    lighthouse: { engine: null, skipped: 'lighthouse.ts is not there' },
  };
  const generated = renderGeneratedSection(report, 'benchmarks/p95-c16.svg');

  it('summarises the verdicts, the machine, the sweep and the chart', () => {
    expect(generated).toContain('1 of 2 PASS; MISS: search:name (70.0 ms)');
    expect(generated).toContain('first sweep 42.0 s, re-run 20.0 s — PASS');
    expect(generated).toContain('| PostgreSQL settings | shared_buffers=128MB |');
    expect(generated).toContain('](benchmarks/p95-c16.svg)');
    expect(generated).toContain('Not run: lighthouse.ts is not there.');
    expect(generated.startsWith(GENERATED_START) && generated.endsWith(GENERATED_END)).toBe(true);
  });

  it('names every run beside the median in the generated section', () => {
    const base = renderGeneratedSection(
      {
        ...report,
        lighthouse: { engine: 'postgres', score: 96, metrics: { tbtMs: 210 }, runScores: [92, 97, 96] },
      },
      'chart.svg',
    );
    expect(base).toContain('Performance score **96** (target ≥ 95) against PostgreSQL: the median of 3 runs (92, 97, 96)');
    expect(base).toContain('- **Lighthouse mobile performance ≥ 95 (client list, cold cache):** 96 — PASS.');
  });

  it("gives the median run's LCP and TBT in the summary, and every run's beside it", () => {
    const runMetrics = [92, 97, 96].map((score) => ({ lcpMs: 4000 - score * 10, tbtMs: 300 - score }));
    const generated = renderGeneratedSection(
      { ...report, lighthouse: { engine: 'postgres', score: 96, metrics: runMetrics[2]!, runScores: [92, 97, 96], runMetrics } },
      'chart.svg',
    );
    expect(generated).toContain('(client list, cold cache):** 96 — PASS; LCP 3040 ms, TBT 204 ms.');
    expect(generated).toContain('92 (LCP 3080 ms, TBT 208 ms); 97 (LCP 3030 ms, TBT 203 ms); 96 (LCP 3040 ms, TBT 204 ms)');
  });

  it('splits the API/SQL verdicts into one request at a time and queued requests', () => {
    const split = renderGeneratedSection(
      {
        ...report,
        cells: [cell({ concurrency: 1, apiMs: [2, 2, 2, 2, 2] }), cell({ apiMs: [9, 9, 9, 9, 9] }), cell({ concurrency: 64 })],
      },
      'chart.svg',
    );
    expect(split).toContain('2 of 3 cells PASS; MISS: getProfile c16');
    expect(split).toContain(
      "  - at c1 (the server's overhead alone): 1 of 1 PASS; at c16/c64 (its CPU queued on the cores the database shares): 1 of 2 PASS.",
    );
  });

  it('replaces only the generated section, keeping the hand-written parts', () => {
    const existing = `# Benchmarks\n\nHow to run.\n\n${GENERATED_START}\nold figures\n${GENERATED_END}\n\n## Changes and before/after\n\n- index on x: 80 → 4 ms\n`;
    const document = spliceGenerated(existing, generated, 'unused');
    expect(document).not.toContain('old figures');
    expect(document).toContain('How to run.');
    expect(document).toContain('- index on x: 80 → 4 ms');
    expect(document.indexOf(GENERATED_START)).toBeLessThan(document.indexOf('## Changes and before/after'));
    expect(spliceGenerated(document, generated, 'unused')).toBe(document);
  });

  it('puts the section before the changes record when a document has no markers yet, and starts from the template without one', () => {
    const document = spliceGenerated('# Benchmarks\n\n## Changes and before/after\n\n- x\n', generated, 'unused');
    expect(document.indexOf(GENERATED_START)).toBeLessThan(document.indexOf('## Changes'));
    expect(spliceGenerated(null, generated, '# T\n')).toBe(`# T\n\n${generated}\n`);
  });
});

describe('Lighthouse runs', () => {
  const run = (score: number, tbtMs: number) => ({ score, metrics: { tbtMs } });

  it("reports the median run, with that run's metrics", () => {
    expect(medianRun([run(92, 333), run(97, 180), run(96, 210)])).toEqual(run(96, 210));
    expect(medianRun([run(99, 90)])).toEqual(run(99, 90));
    // An even count takes the lower middle: a score is never rounded up.
    expect(medianRun([run(98, 1), run(93, 2), run(95, 3), run(99, 4)])).toEqual(run(95, 3));
    expect(() => medianRun([])).toThrow(/no Lighthouse run/);
  });
});
