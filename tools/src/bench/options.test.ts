import { describe, expect, it } from 'vitest';
import { isFullRun, parseBenchOptions } from './options';
import { groupWaves } from './sql-replay';

describe('bench options', () => {
  it('defaults to the documented full run on broker_bench', () => {
    const options = parseBenchOptions([]);
    expect(options).toMatchObject({
      customers: 1_000_000,
      pgliteCustomers: 20_000,
      seed: 1,
      asOf: '2026-11-20',
      concurrencies: [1, 16, 64],
      durationMs: 5000,
      databaseUrl: 'postgres://root@127.0.0.1:5432/broker_bench',
    });
    expect(isFullRun(options)).toBe(true);
  });

  it('keeps a smaller dataset out of the million-customer database and docs/', () => {
    const quick = parseBenchOptions(['--quick']);
    expect(quick).toMatchObject({ customers: 2000, pgliteCustomers: 2000, durationMs: 500, concurrencies: [1, 16] });
    expect(quick.databaseUrl).toBe('postgres://root@127.0.0.1:5432/broker_bench_2000');
    expect(isFullRun(quick)).toBe(false);
    expect(isFullRun(parseBenchOptions(['--endpoints', 'getProfile']))).toBe(false);
    expect(parseBenchOptions(['--quick', '--duration', '2']).durationMs).toBe(2000);
  });

  it('--replicas: two API processes by default (production topology); another count stays out of docs/', () => {
    expect(parseBenchOptions([]).replicas).toBe(2);
    expect(parseBenchOptions(['--replicas', '1']).replicas).toBe(1);
    expect(isFullRun(parseBenchOptions(['--replicas', '1']))).toBe(false);
    expect(() => parseBenchOptions(['--replicas', '0'])).toThrow(/--replicas: must be a positive integer/);
  });

  it('--lighthouse-only measures no endpoint, only Lighthouse, and stays out of docs/', () => {
    const options = parseBenchOptions(['--lighthouse-only', '--engines', 'pglite', '--web-dist', '/tmp/web']);
    expect(options).toMatchObject({
      lighthouseOnly: true,
      lighthouse: true,
      lighthouseRuns: 5,
      scenarios: [],
      fixedRate: false,
      warm: false,
      explain: false,
      webDist: '/tmp/web',
    });
    expect(isFullRun(options)).toBe(false);
    expect(parseBenchOptions([]).lighthouseOnly).toBe(false);
    expect(() => parseBenchOptions(['--lighthouse-only', '--no-lighthouse'])).toThrow(
      '--lighthouse-only: cannot be combined with --no-lighthouse',
    );
    expect(() => parseBenchOptions(['--lighthouse-only', '--endpoints', 'getProfile'])).toThrow('--lighthouse-only: measures no endpoints');
  });

  it('above 1M, more staff by default, so the biggest emulator book stays the size it is at 1M', () => {
    // The generator's weights: 1.5 for each of the emulator's four staff, 1 for everyone else.
    const biggestBook = (customers: number, staff: number) => (customers * 1.5) / (4 * 1.5 + (staff - 4));
    expect(parseBenchOptions([]).staff).toBe(10);
    expect(parseBenchOptions(['--customers', '200000']).staff).toBe(10);
    expect(parseBenchOptions(['--quick']).staff).toBe(10);
    const atMillion = biggestBook(1_000_000, 10);
    for (const customers of [2_000_000, 3_000_000, 7_500_000, 10_000_000]) {
      const { staff } = parseBenchOptions(['--customers', String(customers)]);
      expect(staff).toBeGreaterThan(10);
      expect(Math.abs(biggestBook(customers, staff) / atMillion - 1)).toBeLessThan(0.01);
    }
    expect(parseBenchOptions(['--customers', '10000000']).staff).toBe(118);
    expect(parseBenchOptions(['--customers', '10000000', '--staff', '10']).staff).toBe(10);
  });

  it('--dataset-only loads the PostgreSQL dataset and measures nothing', () => {
    expect(parseBenchOptions([]).datasetOnly).toBe(false);
    const options = parseBenchOptions(['--dataset-only', '--customers', '3000000']);
    expect(options).toMatchObject({
      datasetOnly: true,
      engines: ['postgres'],
      databaseUrl: 'postgres://root@127.0.0.1:5432/broker_bench_3000000',
    });
    expect(isFullRun(options)).toBe(false);
    expect(() => parseBenchOptions(['--dataset-only', '--engines', 'pglite'])).toThrow('--dataset-only: loads the PostgreSQL dataset only');
  });

  it('names the flag and the rule in every refusal', () => {
    expect(() => parseBenchOptions(['--customers=-5'])).toThrow('--customers: must be a positive integer, got "-5"');
    expect(() => parseBenchOptions(['--duration', 'soon'])).toThrow('--duration: must be a number of seconds from 0 to 600');
    expect(() => parseBenchOptions(['--endpoints', 'getProfile,nope'])).toThrow('--endpoints: unknown nope; choose from search:name');
    expect(() => parseBenchOptions(['--engines', 'mysql'])).toThrow('--engines: unknown mysql');
    expect(() => parseBenchOptions(['--staff', '3'])).toThrow('--staff: must be at least 4');
    expect(() => parseBenchOptions(['--database-url', 'mysql://x'])).toThrow('--database-url: must be a postgres:// URL');
    expect(() => parseBenchOptions(['--read-url', 'postgres://a/b,mysql://x'])).toThrow(
      '--read-url: must be postgres:// URLs separated by commas',
    );
  });

  it('passes standbys on to the servers, and a run reading from them is not the documented full run', () => {
    expect(parseBenchOptions([]).readUrl).toBeNull();
    const options = parseBenchOptions(['--read-url', 'postgres://root@127.0.0.1:5433/broker_bench']);
    expect(options.readUrl).toBe('postgres://root@127.0.0.1:5433/broker_bench');
    expect(isFullRun(options)).toBe(false);
    expect(isFullRun({ ...options, readUrl: null })).toBe(true);
  });
});

describe('groupWaves', () => {
  it('keeps statements issued together in one round trip and the rest in order', () => {
    const statement = (text: string, wave: number) => ({ text, params: [], prepared: false, wave });
    const waves = groupWaves([statement('session', 0), statement('rows', 1), statement('count', 1), statement('rates', 2)]);
    expect(waves.map((wave) => wave.map((entry) => entry.text))).toEqual([['session'], ['rows', 'count'], ['rates']]);
  });
});
