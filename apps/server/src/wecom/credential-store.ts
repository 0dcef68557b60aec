import { and, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { wecomCredentials } from '../db/schema';

export type CredentialKind = 'access_token' | 'jsapi_ticket' | 'agent_ticket';

export interface FetchedCredential {
  value: string;
  /** Seconds WeCom says the credential lives. */
  expiresIn: number;
}

/** Refresh this long before WeCom's expiry, so a credential never dies mid-request. */
const SAFETY_MARGIN_S = 300;
/** WeCom's documented lifetime of an access token and a ticket: taken when its reply states no whole number up to it. */
const DOCUMENTED_LIFETIME_S = 7200;

/** One app's credentials (with `kind`, one credential): what every statement here narrows to first. */
const ofAgent = (corpId: number, agentCode: string, kind?: CredentialKind) => [
  eq(wecomCredentials.corpId, corpId),
  eq(wecomCredentials.agentCode, agentCode),
  ...(kind ? [eq(wecomCredentials.kind, kind)] : []),
];

/**
 * WeCom credentials cached in the database and shared by every replica. A refresh takes a
 * transaction-scoped advisory lock and re-reads first, so N replicas that miss together still
 * make one upstream call. Within one process, concurrent misses share one refresh: otherwise each
 * would hold a pooled connection while queueing on the lock, and a burst (say 8 simultaneous KYC
 * binds right after start) could exhaust the pool while the lock holder still needs WeCom.
 */
export function createCredentialStore(db: Database, now: () => number = Date.now) {
  const refreshing = new Map<string, Promise<string>>();
  const read = async (tx: Pick<Database, 'select'>, corpId: number, agentCode: string, kind: CredentialKind) => {
    const [row] = await tx
      .select({ value: wecomCredentials.value })
      .from(wecomCredentials)
      .where(and(...ofAgent(corpId, agentCode, kind), gt(wecomCredentials.expiresAt, new Date(now()))))
      .limit(1);
    return row?.value;
  };

  const refreshUnderLock = (corpId: number, agentCode: string, kind: CredentialKind, fetchFresh: () => Promise<FetchedCredential>) =>
    db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`wecom:${corpId}:${agentCode}:${kind}`}))`);
      const raced = await read(tx, corpId, agentCode, kind);
      if (raced) return raced;
      const fresh = await fetchFresh();
      // A time from outside: NaN or 1e20 made an invalid date (a 500), a negative one a credential expired on arrival.
      const stated = Number.isInteger(fresh.expiresIn) && fresh.expiresIn > 0 && fresh.expiresIn <= DOCUMENTED_LIFETIME_S;
      const expiresIn = stated ? fresh.expiresIn : DOCUMENTED_LIFETIME_S;
      const lifetimeS = Math.max(expiresIn - SAFETY_MARGIN_S, Math.ceil(expiresIn / 2));
      const expiresAt = new Date(now() + lifetimeS * 1000);
      await tx
        .insert(wecomCredentials)
        .values({ corpId, agentCode, kind, value: fresh.value, expiresAt, fetchedAt: new Date(now()) })
        .onConflictDoUpdate({
          target: [wecomCredentials.corpId, wecomCredentials.agentCode, wecomCredentials.kind],
          set: { value: fresh.value, expiresAt, fetchedAt: new Date(now()) },
        });
      return fresh.value;
    });

  return {
    async get(corpId: number, agentCode: string, kind: CredentialKind, fetchFresh: () => Promise<FetchedCredential>): Promise<string> {
      const cached = await read(db, corpId, agentCode, kind);
      if (cached) return cached;
      const key = `${corpId}:${agentCode}:${kind}`;
      const pending = refreshing.get(key);
      if (pending) return pending;
      const refresh = refreshUnderLock(corpId, agentCode, kind, fetchFresh).finally(() => refreshing.delete(key));
      refreshing.set(key, refresh);
      return refresh;
    },

    /**
     * Drops the credentials of these kinds that were fetched at least `minAgeMs` ago; returns the kinds
     * dropped. The age is the cross-replica rate limit: a credential any replica fetched within that
     * time stays, so however many pages report it, WeCom is asked again at most once per period.
     */
    async evictOlderThan(corpId: number, agentCode: string, kinds: readonly CredentialKind[], minAgeMs: number): Promise<CredentialKind[]> {
      const evicted = await db
        .delete(wecomCredentials)
        .where(
          and(
            ...ofAgent(corpId, agentCode),
            inArray(wecomCredentials.kind, [...kinds]),
            lte(wecomCredentials.fetchedAt, new Date(now() - minAgeMs)),
          ),
        )
        .returning({ kind: wecomCredentials.kind });
      return evicted.map((row) => row.kind as CredentialKind);
    },

    /** Drops a credential WeCom has rejected (only if nobody replaced it meanwhile). */
    async invalidate(corpId: number, agentCode: string, kind: CredentialKind, value: string) {
      await db.delete(wecomCredentials).where(and(...ofAgent(corpId, agentCode, kind), eq(wecomCredentials.value, value)));
    },
  };
}

export type CredentialStore = ReturnType<typeof createCredentialStore>;
