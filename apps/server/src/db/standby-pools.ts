import type pg from 'pg';
import type { StandbyOptions } from './client';
import { connectionConfig, PREPARED_SESSION_SETTINGS, serverName, SESSION_SETTINGS, type OpenPool } from './postgres-pools';
import { createReadRouter, RoutedPool } from './read-routing';
import { Probe, Standby, StandbyMonitor } from './standby-monitor';

const DEFAULT_READ_TIMEOUT_MS = 2000;
/** Past the standby's statement_timeout, how long the app still waits for any answer. */
const STANDBY_SILENCE_GRACE_MS = 500;

/** A pool pair per standby, one monitor, and the primary's pools wrapped to route listed reads (ADR 0052). */
export async function routeReadsToStandbys(
  primaryUrl: string,
  options: StandbyOptions,
  primary: { pool: pg.Pool; preparedPool: pg.Pool },
  openPool: OpenPool,
) {
  /**
   * The standby cancels a statement past `timeoutMs` (57014); one that answers nothing (stopped, frozen, a network
   * black hole) is given up a grace later by the driver, marked down, and the statement repeated on the primary.
   */
  const timeoutMs = options.timeoutMs ?? DEFAULT_READ_TIMEOUT_MS;
  const bounds = `-c statement_timeout=${timeoutMs}`;
  const pool = { query_timeout: timeoutMs + STANDBY_SILENCE_GRACE_MS, keepAlive: true, keepAliveInitialDelayMillis: 10_000 };
  const standbys = options.urls.map(
    (standbyUrl) =>
      new Standby(
        serverName(standbyUrl),
        openPool(standbyUrl, `${SESSION_SETTINGS} ${bounds}`, undefined, pool),
        openPool(standbyUrl, `${PREPARED_SESSION_SETTINGS} ${bounds}`, undefined, pool),
        new Probe(connectionConfig(standbyUrl, '')),
      ),
  );
  // Through the pooler: after a failover that repoints it, that is the new primary.
  const monitor = new StandbyMonitor(standbys, new Probe(connectionConfig(primaryUrl, '')), options);
  await monitor.start();
  return {
    pool: new RoutedPool(primary.pool, monitor, (standby) => standby.pool),
    preparedPool: new RoutedPool(primary.preparedPool, monitor, (standby) => standby.preparedPool),
    reads: createReadRouter(primary.pool, monitor, options.maxLagMs),
    pools: standbys.flatMap((standby) => [standby.pool, standby.preparedPool]),
    stop: () => monitor.stop(),
  };
}
