import { describe, expect, it } from 'vitest';
import type { BenchReport } from './report';
import { assertComparable, growth, renderScaleSection, SCALE_END, SCALE_START, spliceScaleSection } from './scale-report';
import { summarize } from './stats';
import type { CellResult, FixedRateResult, Measurement } from './targets';

const measured = (latencies: number[], errors = 0): Measurement => ({
  latency: summarize(latencies),
  requests: latencies.length + errors,
  requestsPerSecond: 400,
  errors,
  errorSamples: [],
});
const cell = (
  endpoint: string,
  concurrency: number,
  apiMs: number[],
  sqlMs: number[],
  group: CellResult['group'] = 'detail',
): CellResult => ({
  engine: 'postgres',
  endpoint,
  group,
  concurrency,
  api: measured(apiMs),
  sql: measured(sqlMs),
});
const fixed = (endpoint: string, fraction: number, ms: number[]): FixedRateResult => ({
  engine: 'postgres',
  endpoint,
  group: 'detail',
  fraction,
  capacityConcurrency: 16,
  targetRate: 200,
  api: measured(ms),
});
const report = (
  customers: number,
  cells: CellResult[],
  fixedRate: FixedRateResult[] = [],
  settings: Partial<BenchReport['settings']> = {},
): BenchReport => ({
  startedAt: '2026-11-28T08:00:00.000Z',
  elapsedMs: 40 * 60_000,
  command: 'npm run bench',
  settings: {
    durationMs: 5000,
    warmupMs: 1000,
    paramsPerEndpoint: 100,
    poolMax: 10,
    concurrencies: [1, 16, 64],
    seed: 1,
    replicas: 2,
    readFrom: 'postgres://root@127.0.0.1:5433/x',
    ...settings,
  },
  machine: { cpu: 'x', cores: 2, ramGb: 24, os: 'linux', node: 'v20', postgresVersion: 'PostgreSQL 15', postgresSettings: {} },
  datasets: [
    {
      engine: 'postgres',
      customers,
      provenance: 'loaded',
      seedMs: 1,
      staffUserId: 'wongchishing',
      staffCustomers: 125_216,
      staff: 10,
      databaseBytes: 4.3e9,
      historyRows: 11.1e6,
    },
  ],
  cells,
  fixedRate,
  sweeps: [{ engine: 'postgres', customers, asOf: '2026-11-20', firstMs: 20_000, firstInserted: 1, rerunMs: 10_000, ruleMs: {} }],
  lighthouse: null,
});

describe('scale report (growth from 1M for every cell: ADR 0052, ADR 0053)', () => {
  const base = report(
    1_000_000,
    [cell('getTrade', 16, [5, 10, 20], [2, 4, 8]), cell('getAsset', 16, [3, 3, 3], [1, 1, 1])],
    [fixed('getTrade', 0.5, [4, 8, 40])],
  );
  const grown = report(
    8_000_000,
    [cell('getTrade', 16, [6, 15, 60], [3, 6, 16]), cell('getAsset', 16, [3, 3, 3], [1, 1, 1])],
    [fixed('getTrade', 0.5, [5, 9, 120])],
  );

  it('puts every cell of the smaller run beside the same cell of the larger one, with the ratio', () => {
    const section = renderScaleSection(base, grown, { base: 'a.json', grown: 'b.json' });
    expect(section.startsWith(SCALE_START) && section.endsWith(SCALE_END)).toBe(true);
    // getTrade c16: p95 20 → 60 ms is 3.00×; SQL p95 8 → 16 is 2.00×; the larger run misses 50 ms.
    expect(section).toMatch(
      /\| getTrade \| 16 \| 10\.0 → 15\.0 \| 20\.0 → 60\.0 \| 3\.00× \| .* \| 8\.00 → 16\.0 \| 2\.00× \| 0 \| MISS \|/,
    );
    expect(section).toMatch(/\| getAsset \| 16 \| 3\.00 → 3\.00 \| 3\.00 → 3\.00 \| 1\.00× \|/);
    // Fixed rate: p99 40 → 120 ms, 3.00×, and the larger run misses its 100 ms.
    expect(section).toMatch(/\| getTrade \| 50% \| 200 → 200 \| .* \| 40\.0 → 120 \| 3\.00× \| 0 \| MISS \|/);
    expect(section).toContain('1M 2 of 2; 8M 1 of 2 (MISS: getTrade 60.0 ms)');
    expect(section).toContain(
      '| PostgreSQL, 8,000,000 customers | 10 | `wongchishing` (125,216) | 11.1 M | 4.3 GB | standby | 20.0 s / 10.0 s |',
    );
  });

  it('shows a cell missing from the larger run as a dash, not a made-up ratio', () => {
    const partial = report(8_000_000, [cell('getAsset', 16, [3, 3, 3], [1, 1, 1])]);
    expect(renderScaleSection(base, partial, { base: 'a', grown: 'b' })).toMatch(/\| getTrade \| 16 \| 10\.0 → — \| 20\.0 → — \| — \|/);
    expect(growth(0, 5)).toBe('—');
    expect(growth(2, 5)).toBe('2.50×');
  });

  it('refuses two runs that differ in more than their size', () => {
    expect(() => assertComparable(base, report(8_000_000, [], [], { durationMs: 3000 }))).toThrow(/differ in more than their size/);
    expect(() => assertComparable(base, report(8_000_000, [], [], { readFrom: undefined }))).toThrow(/differ in more than their size/);
    expect(() => assertComparable(grown, base)).toThrow(/must be the larger dataset/);
  });

  it('says so above the tables when the two runs had different CPUs, and nothing when they had the same', () => {
    expect(renderScaleSection(base, grown, { base: 'a', grown: 'b' })).not.toContain('different machines');
    const elsewhere = { ...grown, machine: { ...grown.machine, cpu: 'AMD EPYC' } };
    const section = renderScaleSection(base, elsewhere, { base: 'a', grown: 'b' });
    expect(section).toContain('**The two runs had different machines:** 1M on x, 2 cores, 8M on AMD EPYC, 2 cores.');
    expect(section.indexOf('different machines')).toBeLessThan(section.indexOf('#### Growth per cell'));
  });

  it('replaces its own section and leaves the rest of the document alone', () => {
    const doc = '# Benchmarks\n\n## At scale\n\nhand-written\n\n## Changes\n';
    const once = spliceScaleSection(doc, `${SCALE_START}\nfirst\n${SCALE_END}`, '## At scale');
    expect(once).toContain('## At scale\n\n<!-- bench:scale:start -->\nfirst');
    const twice = spliceScaleSection(once, `${SCALE_START}\nsecond\n${SCALE_END}`, '## At scale');
    expect(twice).not.toContain('first');
    expect(twice).toContain('second');
    expect(twice).toContain('hand-written');
    expect(() => spliceScaleSection('# nothing', 'x', '## At scale')).toThrow(/neither the scale markers nor the heading/);
  });
});
