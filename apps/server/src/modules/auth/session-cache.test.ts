import { describe, expect, it } from 'vitest';
import { SessionCache } from './session-cache';
import type { SessionForRequest } from './auth.repository';

// A fixed expiry: two sessions built a millisecond apart must still be equal.
const EXPIRES_AT_MS = Date.UTC(2030, 0, 1);
const session = (staffId: number, sessionId = staffId * 10): SessionForRequest => ({
  sessionId,
  corpId: 1,
  expiresAtMs: EXPIRES_AT_MS,
  revoked: false,
  staffId,
  staffName: `staff ${staffId}`,
  wecomUserId: `user${staffId}`,
  staffActive: true,
  bindingHash: `binding${sessionId}`,
});

describe('SessionCache', () => {
  const liveCache = (options = {}) => {
    const cache = new SessionCache(options);
    cache.setLive(true);
    return cache;
  };

  it('serves what a lookup stored, and nothing while changes are not being announced', () => {
    const cache = new SessionCache();
    cache.store('a', session(1), cache.ticket());
    expect(cache.get('a')).toBeUndefined();
    cache.setLive(true);
    cache.store('a', session(1), cache.ticket());
    expect(cache.get('a')).toEqual(session(1));
    cache.setLive(false);
    expect(cache.get('a')).toBeUndefined();
    cache.setLive(true);
    // Whatever was kept before the connection was lost is gone, not served again.
    expect(cache.get('a')).toBeUndefined();
  });

  it('drops the sessions of the staff member a change names, or all of them for *', () => {
    const cache = liveCache();
    cache.store('a', session(1), cache.ticket());
    cache.store('b', session(1, 11), cache.ticket());
    cache.store('c', session(2), cache.ticket());
    cache.invalidate('1');
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, undefined, session(2)]);
    cache.invalidate('*');
    expect(cache.get('c')).toBeUndefined();
  });

  it('does not keep a lookup that a change overtook, since it may have read the session before the change', () => {
    const cache = liveCache();
    const ticket = cache.ticket();
    cache.invalidate('7');
    cache.store('a', session(1), ticket);
    expect(cache.get('a')).toBeUndefined();
    // Lost and regained while reading: not kept either.
    const before = cache.ticket();
    cache.setLive(false);
    cache.setLive(true);
    cache.store('a', session(1), before);
    expect(cache.get('a')).toBeUndefined();
  });

  it('reads an entry again after its maximum age, and keeps at most `capacity`, the most recently used', () => {
    let now = 1_000;
    const cache = liveCache({ maxAgeMs: 60_000, capacity: 2, now: () => now });
    cache.store('a', session(1), cache.ticket());
    now += 60_000;
    expect(cache.get('a')).toBeDefined();
    now += 1;
    expect(cache.get('a')).toBeUndefined();
    for (const key of ['x', 'y']) cache.store(key, session(3), cache.ticket());
    // A session in use stays; the one least recently used makes room.
    expect(cache.get('x')).toBeDefined();
    cache.store('z', session(3), cache.ticket());
    expect(cache.size).toBe(2);
    expect(cache.get('y')).toBeUndefined();
    expect([cache.get('x'), cache.get('z')]).toEqual([session(3), session(3)]);
  });
});
