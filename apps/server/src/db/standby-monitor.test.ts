import { describe, expect, it } from 'vitest';
import { judgeStandby, pickStandby, type StandbyState } from './standby-monitor';
import { PrimaryPositions } from './replication-lag';
import { isStandbyFailure } from './read-routing';

const standby = (name: string, state: StandbyState, replayed?: bigint) => ({ name, state, replayed });

describe('pickStandby', () => {
  const a = standby('a', 'up', 100n);
  const b = standby('b', 'up', 300n);
  const down = standby('down', 'down', 900n);
  const lagging = standby('lagging', 'lagging', 900n);
  const promoted = standby('promoted', 'not-standby', 900n);

  it('takes turns among the standbys that are up, and never one that is down, lagging or not a standby', () => {
    const all = [down, a, lagging, b, promoted];
    const picked = [0, 1, 2, 3].map((turn) => (pickStandby(all, undefined, turn) as { use: { name: string } }).use.name);
    expect(picked).toEqual(['a', 'b', 'a', 'b']);
  });

  it('answers none (the primary) when no standby is up', () => {
    expect(pickStandby([down, lagging, promoted], undefined, 0)).toBeUndefined();
    expect(pickStandby([down, lagging, promoted], 1n, 0)).toBeUndefined();
    expect(pickStandby([], undefined, 0)).toBeUndefined();
  });

  it("uses only a standby that has replayed the reader's last write", () => {
    expect(pickStandby([a, b], 200n, 0)).toEqual({ use: b });
    expect(pickStandby([a, b], 200n, 1)).toEqual({ use: b });
    expect(pickStandby([a, b], 100n, 1)).toEqual({ use: b });
  });

  it('else names the furthest standby that is up, to wait for', () => {
    expect(pickStandby([a, b, down], 500n, 0)).toEqual({ waitFor: b });
  });
});

describe('judgeStandby', () => {
  const positions = new PrimaryPositions(60_000);
  positions.record(0x1000n, 0);
  positions.record(0x2000n, 4000);
  const primary = '7712143948057430131 2026-11-25 16:17:20.642381+00';

  it('a standby in recovery is up within the bound and lagging beyond it', () => {
    expect(judgeStandby({ recovery: true, lsn: '0/2000', identity: primary }, primary, positions, 10_000, 5000)).toEqual({
      state: 'up',
      replayed: 0x2000n,
      lagMs: 0,
    });
    expect(judgeStandby({ recovery: true, lsn: '0/1000', identity: primary }, primary, positions, 10_000, 5000)).toMatchObject({
      state: 'lagging',
      lagMs: 6000,
    });
    expect(judgeStandby({ recovery: true, lsn: '0/1000', identity: primary }, primary, positions, 8000, 5000)).toMatchObject({
      state: 'up',
      lagMs: 4000,
    });
    expect(judgeStandby({ recovery: true, lsn: null, identity: primary }, primary, positions, 8000, 5000).state).toBe('lagging');
  });

  it('a server out of recovery is trusted only if it is the primary itself (not a promoted standby)', () => {
    const promoted = '7712143948057430131 2026-11-25 17:01:02.000001+00';
    expect(judgeStandby({ recovery: false, lsn: '0/9000', identity: promoted }, primary, positions, 10_000, 5000)).toEqual({
      state: 'not-standby',
      replayed: undefined,
      lagMs: null,
    });
    expect(judgeStandby({ recovery: false, lsn: '0/9000', identity: promoted }, undefined, positions, 10_000, 5000).state).toBe(
      'not-standby',
    );
    expect(judgeStandby({ recovery: false, lsn: '0/1000', identity: primary }, primary, positions, 10_000, 5000)).toEqual({
      state: 'up',
      replayed: 0x1000n,
      lagMs: 0,
    });
  });
});

describe('isStandbyFailure: which failed statements are run again on the primary', () => {
  it.each([
    [Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }), true],
    [new Error('Connection terminated unexpectedly'), true],
    [new Error('timeout exceeded when trying to connect'), true],
    [Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }), true],
    [Object.assign(new Error('the database system is starting up'), { code: '57P03' }), true],
    [Object.assign(new Error('canceling statement due to conflict with recovery'), { code: '40001' }), true],
    [Object.assign(new Error('connection failure'), { code: '08006' }), true],
    [Object.assign(new Error('cannot execute INSERT in a read-only transaction'), { code: '25006' }), false],
    [Object.assign(new Error('relation "x" does not exist'), { code: '42P01' }), false],
    [Object.assign(new Error('invalid input syntax'), { code: '22P02' }), false],
  ])('%s → %s', (error, expected) => {
    expect(isStandbyFailure(error)).toBe(expected);
  });
});
