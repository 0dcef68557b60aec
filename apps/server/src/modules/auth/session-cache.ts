import { LRUCache } from 'lru-cache';
import type { SessionForRequest } from './auth.repository';

/** Migration 0017's: a staff id, or `*` for everyone. */
export const SESSION_CHANGE_CHANNEL = 'broker_session_changed';

export interface SessionCacheOptions {
  /** The least recently used go first. */
  capacity?: number;
  /** A backstop: read again after this long even with no change announced. */
  maxAgeMs?: number;
  now?: () => number;
}

/**
 * Sessions this process looked up (ADR 0010). Correct only while changes are announced (migration 0017's
 * triggers) and the listening connection is up (`setLive`). A lookup's `ticket` keeps a read that may predate
 * a change announced meanwhile out of the cache.
 */
export class SessionCache {
  private readonly entries: LRUCache<string, SessionForRequest>;
  private live = false;
  private generation = 0;

  constructor(options: SessionCacheOptions = {}) {
    this.entries = new LRUCache({
      max: options.capacity ?? 10_000,
      ttl: options.maxAgeMs ?? 60_000,
      // The age limit is a security backstop: read the clock on every get.
      ttlResolution: 0,
      ...(options.now ? { perf: { now: options.now } } : {}),
    });
  }

  get size() {
    return this.entries.size;
  }

  get(tokenHash: string): SessionForRequest | undefined {
    return this.live ? this.entries.get(tokenHash) : undefined;
  }

  ticket(): number {
    return this.generation;
  }

  store(tokenHash: string, session: SessionForRequest, ticket: number): void {
    if (this.live && ticket === this.generation) this.entries.set(tokenHash, session);
  }

  invalidate(payload: string): void {
    this.generation += 1;
    const staffId = Number(payload);
    if (payload === '*' || !Number.isInteger(staffId)) {
      this.entries.clear();
      return;
    }
    // Deleting while lru-cache iterates is not safe.
    const ended: string[] = [];
    for (const [tokenHash, session] of this.entries.entries()) if (session.staffId === staffId) ended.push(tokenHash);
    for (const tokenHash of ended) this.entries.delete(tokenHash);
  }

  /** While not, nothing is served or kept. */
  setLive(live: boolean): void {
    this.generation += 1;
    this.live = live;
    if (!live) this.entries.clear();
  }
}
