import { and, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { wecomCredentials } from '../db/schema';

export type CredentialKind = 'access_token' | 'jsapi_ticket' | 'agent_ticket';

export interface FetchedCredential {
  value: string;
  expiresIn: number;
}

/** So a credential never dies mid-request. */
const SAFETY_MARGIN_S = 300;
/** Taken when WeCom's reply states no whole number up to it. */
const DOCUMENTED_LIFETIME_S = 7200;

/** What every statement here narrows to first. */
const ofAgent = (corpId: number, agentCode: string, kind?: CredentialKind) => [
  eq(wecomCredentials.corpId, corpId),
  eq(wecomCredentials.agentCode, agentCode),
  ...(kind ? [eq(wecomCredentials.kind, kind)] : []),
];

/**
 * Shared by every replica: a refresh takes a transaction advisory lock and re-reads, so replicas missing together
 * make one upstream call; within a process concurrent misses share one refresh, else a burst of misses each
 * holding a pooled connection on the lock could exhaust the pool.
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
      // A time from outside: NaN or 1e20 made an invalid date (a 500), a negative one expired on arrival.
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

    /** Only those fetched `minAgeMs` ago or more: across replicas, WeCom is asked again at most once per period. */
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

    /** Only if nobody replaced it meanwhile. */
    async invalidate(corpId: number, agentCode: string, kind: CredentialKind, value: string) {
      await db.delete(wecomCredentials).where(and(...ofAgent(corpId, agentCode, kind), eq(wecomCredentials.value, value)));
    },
  };
}

export type CredentialStore = ReturnType<typeof createCredentialStore>;
