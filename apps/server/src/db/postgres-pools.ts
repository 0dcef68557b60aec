import pg from 'pg';

/** No parallel workers: a worker costs a process start and a core for pages of a few ms (ADR 0029). */
export const SESSION_SETTINGS = '-c max_parallel_workers_per_gather=0';
/**
 * PostgreSQL's own choice kept planning keyword pages on every call (ADR 0008); the statements are written so
 * one plan suits every value, and the plan-guard test compares generic and custom plans.
 */
export const PREPARED_SESSION_SETTINGS = `${SESSION_SETTINGS} -c plan_cache_mode=force_generic_plan`;

/** A URL's own `options` would replace ours (pg reads the URL last): both are kept. */
export function connectionConfig(url: string, settings: string): { connectionString: string; options?: string } {
  const parsed = new URL(url);
  const own = parsed.searchParams.get('options');
  if (own === null) return settings ? { connectionString: url, options: settings } : { connectionString: url };
  parsed.searchParams.delete('options');
  const options = [own, settings].filter(Boolean).join(' ');
  return { connectionString: parsed.toString(), ...(options ? { options } : {}) };
}

/** How a standby is named in logs and /readyz (never its password). */
export function serverName(url: string): string {
  const parsed = new URL(url);
  return `${decodeURIComponent(parsed.hostname) || 'localhost'}:${parsed.port || '5432'}${decodeURIComponent(parsed.pathname) || '/'}`;
}

export const poolOpener =
  (limits: { max: number; waitMs: number }) =>
  (at: string, settings: string, max = limits.max, more: pg.PoolConfig = {}) => {
    // Bounds both opening a connection and waiting for a free one.
    const created = new pg.Pool({ ...connectionConfig(at, settings), max, connectionTimeoutMillis: limits.waitMs, ...more });
    // An idle client's network error must not crash the process; the pool replaces it.
    created.on('error', () => undefined);
    // Nor a checked-out one's, lost between two statements (a failover): pg-pool only listens while it is idle.
    created.on('connect', (client) => client.on('error', () => undefined));
    return created;
  };
export type OpenPool = ReturnType<typeof poolOpener>;
