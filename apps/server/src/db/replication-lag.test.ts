import { describe, expect, it } from 'vitest';
import { PrimaryPositions } from './replication-lag';

describe('replication lag: the age of the oldest primary position a standby has not replayed', () => {
  it('is 0 for a standby that replayed everything sampled, however long the primary has been idle', () => {
    const positions = new PrimaryPositions(10_000);
    positions.record(100n, 0);
    // An hour of an idle primary: the same position, sampled again and again.
    for (let at = 250; at <= 3_600_000; at += 250) positions.record(100n, at);
    expect(positions.lagMs(100n, 3_600_000)).toBe(0);
    expect(positions.lagMs(150n, 3_600_000)).toBe(0);
  });

  it('grows from the time the first position it misses was first seen', () => {
    const positions = new PrimaryPositions(10_000);
    positions.record(100n, 1000);
    positions.record(200n, 2000);
    positions.record(300n, 3000);
    positions.record(300n, 3500);
    expect(positions.lagMs(300n, 4000)).toBe(0);
    expect(positions.lagMs(250n, 4000)).toBe(1000);
    expect(positions.lagMs(200n, 4000)).toBe(1000);
    expect(positions.lagMs(199n, 4000)).toBe(2000);
    expect(positions.lagMs(50n, 4000)).toBe(3000);
  });

  it('is infinite below a position sampled longer ago than it keeps, and samples do not pile up', () => {
    const positions = new PrimaryPositions(1000);
    for (let at = 0; at <= 10_000; at += 100) positions.record(BigInt(at), at);
    expect(positions.lagMs(10_000n, 10_000)).toBe(0);
    expect(positions.lagMs(9_500n, 10_000)).toBe(400);
    expect(positions.lagMs(100n, 10_000)).toBe(Number.POSITIVE_INFINITY);
    expect((positions as unknown as { samples: unknown[] }).samples.length).toBeLessThanOrEqual(12);
  });

  it('starts afresh when the primary answers with an earlier position (another server promoted)', () => {
    const positions = new PrimaryPositions(1000);
    positions.record(500n, 0);
    positions.record(900n, 5000);
    positions.record(400n, 6000);
    expect((positions as unknown as { samples: unknown[] }).samples).toEqual([{ at: 6000, lsn: 400n }]);
    expect(positions.lagMs(400n, 9000)).toBe(0);
    expect(positions.lagMs(399n, 9000)).toBe(3000);
  });
});
