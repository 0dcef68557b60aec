import type { SessionForRequest } from './auth.repository';

/** The NOTIFY channel of migration 0017: the payload is a staff id, or `*` for everyone. */
export const SESSION_CHANGE_CHANNEL = 'broker_session_changed';

interface Entry {
  session: SessionForRequest;
  storedAt: number;
}

export interface SessionCacheOptions {
  /** Sessions kept at most (the oldest stored go first). */
  capacity?: number;
  /** A backstop: an entry is read again after this long even if no change was announced. */
  maxAgeMs?: number;
  now?: () => number;
}

/**
 * The sessions this process has looked up, so an authenticated request need not read
 * `auth_session` first: on two cores that round trip cost as much as the rest of a client page
 * (docs/benchmarks.md, round six). Correct only while changes are announced: migration 0017's
 * triggers NOTIFY every change that can end a session, and the cache is used only while its
 * listening connection is up (`setLive`). ADR 0010.
 *
 * A lookup takes a `ticket` before it reads and hands it to `store`: if any change was announced in
 * between, what it read may predate that change and is not kept.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private live = false;
  private generation = 0;
  private readonly capacity: number;
  private readonly maxAgeMs: number;
  private readonly now: () => number;

  constructor(options: SessionCacheOptions = {}) {
    this.capacity = options.capacity ?? 10_000;
    this.maxAgeMs = options.maxAgeMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  get size() {
    return this.entries.size;
  }

  get(tokenHash: string): SessionForRequest | undefined {
    if (!this.live) return undefined;
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (this.now() - entry.storedAt >= this.maxAgeMs) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return entry.session;
  }

  ticket(): number {
    return this.generation;
  }

  store(tokenHash: string, session: SessionForRequest, ticket: number): void {
    if (!this.live || ticket !== this.generation) return;
    this.entries.delete(tokenHash);
    this.entries.set(tokenHash, { session, storedAt: this.now() });
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  /** A change was announced: `payload` is the staff id whose sessions changed, or `*`. */
  invalidate(payload: string): void {
    this.generation += 1;
    const staffId = Number(payload);
    if (payload === '*' || !Number.isInteger(staffId)) {
      this.entries.clear();
      return;
    }
    for (const [tokenHash, entry] of this.entries) if (entry.session.staffId === staffId) this.entries.delete(tokenHash);
  }

  /** Whether changes are being announced; while not, nothing is served or kept. */
  setLive(live: boolean): void {
    this.generation += 1;
    this.live = live;
    if (!live) this.entries.clear();
  }
}
