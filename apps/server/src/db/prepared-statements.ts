import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import type { Database, QueryObserver } from './client';

export const loggerOf = (observe: QueryObserver | undefined) => (observe ? { logger: { logQuery: observe } } : {});

type PreparedRunner = (query: SQL) => Promise<unknown[]>;

/** One per distinct text, the same on every connection and process. */
export const preparedStatementName = (text: string) => `s${createHash('sha1').update(text).digest('base64url')}`;
const PREPARED_RUNNER = Symbol('preparedRunner');

/**
 * Runs a statement prepared under a name from its text, on `preparedPool`, so each connection plans it once
 * (PostgreSQL spent longer planning a page than running it, ADR 0008). Only for statements whose best plan
 * does not depend on the values. Drizzle's `execute` cannot name a statement. PGlite only reports it.
 */
export function preparedRunnerOf(db: Pick<Database, 'execute'>): PreparedRunner | undefined {
  return (db as { [PREPARED_RUNNER]?: PreparedRunner })[PREPARED_RUNNER];
}

export const attachPreparedRunner = (db: Database, run: PreparedRunner) => Object.defineProperty(db, PREPARED_RUNNER, { value: run });
