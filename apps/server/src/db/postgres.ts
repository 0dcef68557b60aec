import { PgDialect } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { Database, DatabaseHandle, QueryObserver, StandbyOptions } from './client';
import { databaseConnectionError } from './connection-failure';
import { postgresSessions } from './listen';
import { poolOpener, PREPARED_SESSION_SETTINGS, serverName, SESSION_SETTINGS } from './postgres-pools';
import { attachPreparedRunner, loggerOf, preparedStatementName } from './prepared-statements';
import * as schema from './schema';
import { routeReadsToStandbys } from './standby-pools';

/** The migration, demo-seed, MOT-sweep and search-terms locks at once. */
const SESSION_POOL_MAX = 4;

export async function openPostgres(
  url: string,
  limits: { max: number; waitMs: number },
  topology: { directUrl: string | undefined; standbys: StandbyOptions | undefined; sessionProofTimeoutMs: number },
  observe?: QueryObserver,
): Promise<DatabaseHandle> {
  const poolWith = poolOpener(limits);
  // PgBouncer refuses startup options: behind it the settings belong in its connect_query, and prepared
  // statements keep plan_cache_mode=auto (ADR 0052).
  const pooled = topology.directUrl !== undefined;
  const pool = poolWith(url, pooled ? '' : SESSION_SETTINGS);
  const pools = [pool];
  // One round trip first, so an unreachable server, database or role is reported as what it is.
  try {
    await pool.query('select 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw databaseConnectionError(error, url, limits.waitMs);
  }
  // The setting is per connection: every other statement keeps its custom plan (`陈` and `Rong` need different ones).
  const preparedPool = poolWith(url, pooled ? '' : PREPARED_SESSION_SETTINGS);
  pools.push(preparedPool);
  const sessionPool = topology.directUrl ? poolWith(topology.directUrl, SESSION_SETTINGS, SESSION_POOL_MAX) : pool;
  if (sessionPool !== pool) pools.push(sessionPool);

  const standbys = topology.standbys?.urls.length
    ? await routeReadsToStandbys(url, topology.standbys, { pool, preparedPool }, poolWith)
    : undefined;
  if (standbys) pools.push(...standbys.pools);
  const db = drizzlePg({ client: (standbys?.pool ?? pool) as pg.Pool, schema, ...loggerOf(observe) }) as unknown as Database;
  const dialect = new PgDialect();
  const preparedClient = (standbys?.preparedPool ?? preparedPool) as pg.Pool;
  attachPreparedRunner(db, async (query) => {
    const { sql: text, params } = dialect.sqlToQuery(query);
    observe?.(text, params, true);
    return (await preparedClient.query({ name: preparedStatementName(text), text, values: params })).rows;
  });
  const sessionUrl = topology.directUrl ?? url;
  const where = `${topology.directUrl ? 'DATABASE_DIRECT_URL' : 'DATABASE_URL'} (${serverName(sessionUrl)})`;
  return {
    db,
    kind: 'postgres',
    pool,
    preparedPool,
    sessionPool,
    ...(standbys ? { reads: standbys.reads } : {}),
    async query<Row>(text: string, params: unknown[] = []) {
      observe?.(text, params);
      return (await pool.query(text, params)).rows as Row[];
    },
    ...postgresSessions(pool, sessionUrl, where, topology.sessionProofTimeoutMs),
    close: async () => {
      standbys?.stop();
      await Promise.all(pools.map((each) => each.end()));
    },
  };
}
