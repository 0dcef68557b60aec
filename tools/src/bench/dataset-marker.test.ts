import { describe, expect, it } from 'vitest';
import { decideDataset, formatMarker, parseMarker, type DatasetMarker } from './dataset-marker';

const wanted = { customers: 1_000_000, seed: 1, asOf: '2026-11-20', staff: 10 };
const marker: DatasetMarker = { ...wanted, migrations: 5, seededAt: '2026-11-21T13:45:00.000Z', origin: 'seeded' };
const full = { customers: 1_000_000, priceDate: '2026-11-20' };

describe('dataset marker', () => {
  it('round-trips through the database comment', () => {
    expect(parseMarker(formatMarker(marker))).toEqual(marker);
  });

  it('ignores comments that are not a marker or are malformed', () => {
    expect(parseMarker(null)).toBeNull();
    expect(parseMarker('')).toBeNull();
    expect(parseMarker('production database, do not touch')).toBeNull();
    expect(parseMarker('broker-bench dataset {not json')).toBeNull();
    expect(parseMarker('broker-bench dataset {"customers":"many","seed":1,"asOf":"2026-11-20","staff":10,"migrations":5}')).toBeNull();
  });
});

describe('decideDataset', () => {
  it('reuses a database whose marker names the wanted dataset', () => {
    const decision = decideDataset({ wanted, marker, observed: full, migrations: 5, reseed: false });
    expect(decision.action).toBe('reuse');
    expect(decision.reason).toContain('1,000,000 customers, seed 1, as of 2026-11-20');
  });

  it('reuses it after newer migrations and says so (they add indexes, not data)', () => {
    const decision = decideDataset({ wanted, marker, observed: full, migrations: 7, reseed: false });
    expect(decision).toMatchObject({ action: 'reuse' });
    expect(decision.reason).toContain('2 newer migration(s)');
  });

  it.each([
    ['customers', { customers: 20_000 }],
    ['seed', { seed: 7 }],
    ['asOf', { asOf: '2026-11-13' }],
    ['staff', { staff: 12 }],
  ] as const)('loads afresh when the marker differs in %s', (field, change) => {
    const decision = decideDataset({ wanted: { ...wanted, ...change }, marker, observed: full, migrations: 5, reseed: false });
    expect(decision.action).toBe('seed');
    expect(decision.reason).toContain(`differs in ${field}`);
  });

  it('loads afresh when the customers the marker promises are gone', () => {
    const decision = decideDataset({ wanted, marker, observed: { customers: 0, priceDate: null }, migrations: 5, reseed: false });
    expect(decision).toMatchObject({ action: 'seed' });
    expect(decision.reason).toContain('has 0 customers now');
  });

  it('adopts an unmarked database with exactly the wanted customers as of the wanted day', () => {
    expect(decideDataset({ wanted, marker: null, observed: full, migrations: 5, reseed: false }).action).toBe('adopt');
  });

  it('does not adopt an unmarked database of another size or day', () => {
    expect(
      decideDataset({ wanted, marker: null, observed: { customers: 999_999, priceDate: '2026-11-20' }, migrations: 5, reseed: false })
        .action,
    ).toBe('seed');
    expect(
      decideDataset({ wanted, marker: null, observed: { customers: 1_000_000, priceDate: '2026-11-19' }, migrations: 5, reseed: false })
        .action,
    ).toBe('seed');
    expect(decideDataset({ wanted, marker: null, observed: { customers: 0, priceDate: null }, migrations: 5, reseed: false }).reason).toBe(
      'it has no customers',
    );
  });

  it('loads afresh on --reseed whatever the marker says', () => {
    expect(decideDataset({ wanted, marker, observed: full, migrations: 5, reseed: true })).toEqual({
      action: 'seed',
      reason: '--reseed given',
    });
  });
});
