import type pg from 'pg';
import type { StandbyOptions } from './client';
import { connectionConfig, PREPARED_SESSION_SETTINGS, serverName, SESSION_SETTINGS, type OpenPool } from './postgres-pools';
import { createReadRouter, RoutedPool } from './read-routing';
import { Probe, Standby, StandbyMonitor } from './standby-monitor';

const DEFAULT_READ_TIMEOUT_MS = 2000;
/** How much longer than the standby's own statement_timeout the app waits for any answer at all. */
const STANDBY_SILENCE_GRACE_MS = 500;

/**
 * A standby's statements are bounded (ADR 0052): the standby cancels one that runs longer than
 * `timeoutMs` (57014, repeated on the primary); and a standby that answers nothing at all — stopped,
 * frozen, behind a network black hole — is given up `STANDBY_SILENCE_GRACE_MS` later by the driver
 * ("Query read timeout": the connection is dropped, the standby marked down, the statement repeated on
 * the primary), instead of holding the request until TCP gives up. TCP keepalive finds idle
 * connections to a vanished standby.
 */
function standbyStatementBounds(timeoutMs: number): { settings: string; pool: pg.PoolConfig } {
  return {
    settings: `-c statement_timeout=${timeoutMs}`,
    pool: { query_timeout: timeoutMs + STANDBY_SILENCE_GRACE_MS, keepAlive: true, keepAliveInitialDelayMillis: 10_000 },
  };
}

/**
 * Page reads on streaming standbys (ADR 0052): a pool pair per standby, watched by one monitor, and the
 * primary's pools wrapped so a listed read goes to a standby that has caught up with it.
 */
export async function routeReadsToStandbys(
  primaryUrl: string,
  options: StandbyOptions,
  primary: { pool: pg.Pool; preparedPool: pg.Pool },
  openPool: OpenPool,
) {
  const bounds = standbyStatementBounds(options.timeoutMs ?? DEFAULT_READ_TIMEOUT_MS);
  const standbys = options.urls.map(
    (standbyUrl) =>
      new Standby(
        serverName(standbyUrl),
        openPool(standbyUrl, `${SESSION_SETTINGS} ${bounds.settings}`, undefined, bounds.pool),
        openPool(standbyUrl, `${PREPARED_SESSION_SETTINGS} ${bounds.settings}`, undefined, bounds.pool),
        new Probe(connectionConfig(standbyUrl, '')),
      ),
  );
  // Asked where the writes go (through the pooler, if any): after a failover that repoints the pooler,
  // that is the new primary, even while DATABASE_DIRECT_URL still names the old one.
  const monitor = new StandbyMonitor(standbys, new Probe(connectionConfig(primaryUrl, '')), {
    maxLagMs: options.maxLagMs,
    waitMs: options.waitMs,
    ...(options.monitorIntervalMs ? { intervalMs: options.monitorIntervalMs } : {}),
  });
  await monitor.start();
  return {
    pool: new RoutedPool(primary.pool, monitor, (standby) => standby.pool),
    preparedPool: new RoutedPool(primary.preparedPool, monitor, (standby) => standby.preparedPool),
    reads: createReadRouter(primary.pool, monitor, options.maxLagMs),
    /** Every standby pool, for close. */
    pools: standbys.flatMap((standby) => [standby.pool, standby.preparedPool]),
    stop: () => monitor.stop(),
  };
}
