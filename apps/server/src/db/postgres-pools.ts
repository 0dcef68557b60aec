import pg from 'pg';

/**
 * No parallel workers for the app's statements: each is a page of a few milliseconds, and a worker
 * costs a process start and a core that the other requests are waiting for: a generic plan that
 * over-estimated a keyword's matches went parallel and took many times longer (ADR 0029,
 * docs/benchmarks.md round five). The MOT sweep's INSERT … SELECT never runs in parallel anyway.
 */
export const SESSION_SETTINGS = '-c max_parallel_workers_per_gather=0';
/**
 * Where prepared statements run: PostgreSQL's own choice kept planning the client list's keyword
 * pages for every call (ADR 0008), because their generic plan's estimate (a GIN match of
 * 5,000 rows, the default for an unknown array) always looked dearer than a custom plan. The
 * statements are written so that one plan suits every value (ADR 0008/0009), and the plan-guard
 * test compares each one's generic plan with its custom plans.
 */
export const PREPARED_SESSION_SETTINGS = `${SESSION_SETTINGS} -c plan_cache_mode=force_generic_plan`;

/**
 * `url`'s connection settings with `settings` added to the startup options it may carry itself (a
 * URL's `options` would otherwise replace ours: pg reads the URL last).
 */
export function connectionConfig(url: string, settings: string): { connectionString: string; options?: string } {
  const parsed = new URL(url);
  const own = parsed.searchParams.get('options');
  if (own === null) return settings ? { connectionString: url, options: settings } : { connectionString: url };
  parsed.searchParams.delete('options');
  const options = [own, settings].filter(Boolean).join(' ');
  return { connectionString: parsed.toString(), ...(options ? { options } : {}) };
}

/** Host, port and database of a URL: how a standby is named in logs and /readyz (never its password). */
export function serverName(url: string): string {
  const parsed = new URL(url);
  return `${decodeURIComponent(parsed.hostname) || 'localhost'}:${parsed.port || '5432'}${decodeURIComponent(parsed.pathname) || '/'}`;
}

/** Opens pools to a server: `limits.max` connections each unless told, and a bounded wait for a free one. */
export const poolOpener =
  (limits: { max: number; waitMs: number }) =>
  (at: string, settings: string, max = limits.max, more: pg.PoolConfig = {}) => {
    // connectionTimeoutMillis bounds both opening a connection and waiting for a busy pool to free one.
    const created = new pg.Pool({ ...connectionConfig(at, settings), max, connectionTimeoutMillis: limits.waitMs, ...more });
    // An idle client's network error must not crash the process; the pool replaces it.
    created.on('error', () => undefined);
    // Nor a checked-out one's: pg-pool listens to a client only while it is idle, and a connection lost
    // between two statements (the server, or PgBouncer's "server conn crashed?", at a failover) would end
    // the process with an unheard 'error'. Heard, the client's next statement fails and the pool drops it.
    created.on('connect', (client) => client.on('error', () => undefined));
    return created;
  };
export type OpenPool = ReturnType<typeof poolOpener>;
