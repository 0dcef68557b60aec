import { LRUCache } from 'lru-cache';
import type { CustomerCriteria } from './customer-filters';

interface Entry {
  version: bigint;
  value: unknown;
}

/** Criteria with the same meaning give the same key: list filters are sets, empty ones mean none. */
export function criteriaKey(criteria: CustomerCriteria): string {
  const set = (values: string[] | undefined) => (values?.length ? [...new Set(values)].sort() : null);
  return JSON.stringify([
    criteria.corpId,
    criteria.staffId,
    criteria.keyword?.text ?? null,
    set(criteria.channels),
    set(criteria.statuses),
    criteria.assetMinHkd ?? null,
    criteria.assetMaxHkd ?? null,
    criteria.openDateFrom ?? null,
    criteria.openDateTo ?? null,
    criteria.kycBound ?? null,
    set(criteria.markets),
    criteria.hasHolding ?? null,
  ]);
}

/**
 * This process's lookups of every BookResultCache, and the values it had to compute (each is
 * stored): lookups − computed were answered from memory. Two additions per request, read by
 * /readyz so the benchmark can report each cell's hit rate.
 */
export const bookResultCacheCounters = { lookups: 0, computed: 0 };

/**
 * Totals and stats of live (non-summary) filters, which read the whole filtered book (ADR 0029 has
 * what they cost), kept per (kind, criteria) with the book version they were computed under. An
 * entry is served only while the database still holds that version, so a write on any replica
 * invalidates it at its commit. Least recently used entries go first beyond `capacity` (lru-cache,
 * ADR 0028); the version rule is ours.
 *
 * The version is read before the value is computed: a write that commits in between may be in the
 * stored value, but is stored under the older version, which the next request no longer reads —
 * so it recomputes. A value is never stored under a version newer than the data it saw.
 */
export class BookResultCache {
  private readonly entries: LRUCache<string, Entry>;

  constructor(readonly capacity = 5_000) {
    this.entries = new LRUCache({ max: capacity });
  }

  get size() {
    return this.entries.size;
  }

  async getOrCompute<T>(key: string, version: string, compute: () => Promise<T>): Promise<T> {
    const entry = this.peek<T>(key);
    if (entry && entry.version === version) return entry.value;
    const value = await compute();
    this.store(key, version, value);
    return value;
  }

  /**
   * The entry under `key` whatever its version, marked most recently used; the caller must check
   * the version before serving it (the client list reads the version in the same statement as its
   * page, and uses a stale total only as a hint of how to find that page).
   */
  peek<T>(key: string): { version: string; value: T } | undefined {
    bookResultCacheCounters.lookups += 1;
    const entry = this.entries.get(key);
    return entry && { version: entry.version.toString(), value: entry.value as T };
  }

  /** Stores `value` as computed under `version`, unless a newer version's value is already there. */
  store(key: string, version: string, value: unknown): void {
    bookResultCacheCounters.computed += 1;
    const current = BigInt(version);
    // A slower request that read an older version must not replace a newer entry (nor refresh it).
    const latest = this.entries.peek(key);
    if (latest && latest.version > current) return;
    this.entries.set(key, { version: current, value });
  }
}
