import { LRUCache } from 'lru-cache';
import type { SessionForRequest } from './auth.repository';

/** The NOTIFY channel of migration 0017: the payload is a staff id, or `*` for everyone. */
export const SESSION_CHANGE_CHANNEL = 'broker_session_changed';

export interface SessionCacheOptions {
  /** Sessions kept at most (the least recently used go first). */
  capacity?: number;
  /** A backstop: an entry is read again after this long even if no change was announced. */
  maxAgeMs?: number;
  now?: () => number;
}

/**
 * The sessions this process has looked up, so an authenticated request need not read
 * `auth_session` first (the round trip it saves is measured in ADR 0010). Correct only while
 * changes are announced: migration 0017's triggers NOTIFY every change that can end a session, and
 * the cache is used only while its listening connection is up (`setLive`). ADR 0010.
 *
 * A lookup takes a `ticket` before it reads and hands it to `store`: if any change was announced in
 * between, what it read may predate that change and is not kept.
 */
export class SessionCache {
  private readonly entries: LRUCache<string, SessionForRequest>;
  private live = false;
  private generation = 0;

  constructor(options: SessionCacheOptions = {}) {
    this.entries = new LRUCache({
      max: options.capacity ?? 10_000,
      ttl: options.maxAgeMs ?? 60_000,
      // Read the clock on every get: the age limit is a security backstop, not a hint.
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

  /** A change was announced: `payload` is the staff id whose sessions changed, or `*`. */
  invalidate(payload: string): void {
    this.generation += 1;
    const staffId = Number(payload);
    if (payload === '*' || !Number.isInteger(staffId)) {
      this.entries.clear();
      return;
    }
    // Collected first: deleting while lru-cache iterates is not safe.
    const ended: string[] = [];
    for (const [tokenHash, session] of this.entries.entries()) if (session.staffId === staffId) ended.push(tokenHash);
    for (const tokenHash of ended) this.entries.delete(tokenHash);
  }

  /** Whether changes are being announced; while not, nothing is served or kept. */
  setLive(live: boolean): void {
    this.generation += 1;
    this.live = live;
    if (!live) this.entries.clear();
  }
}
