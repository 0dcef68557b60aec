import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import type { Database, QueryObserver } from './client';

/** Drizzle's logger option for a statement observer (`openDatabase({ onQuery })`). */
export const loggerOf = (observe: QueryObserver | undefined) => (observe ? { logger: { logQuery: observe } } : {});

type PreparedRunner = (query: SQL) => Promise<unknown[]>;

/** A prepared statement's name: one per distinct text, the same on every connection and process. */
export const preparedStatementName = (text: string) => `s${createHash('sha1').update(text).digest('base64url')}`;
const PREPARED_RUNNER = Symbol('preparedRunner');

/**
 * PostgreSQL (and PGlite with an observer, which only reports it as prepared; else undefined): runs a
 * statement as a named prepared statement, named after
 * its text, on a connection of `preparedPool`, so each connection parses and plans it once and then
 * reuses that generic plan: PostgreSQL spent longer planning a client page's statements than
 * running them (ADR 0008, docs/benchmarks.md round four). Only for statements whose
 * best plan does not depend on their parameter values — lookups by id or by staff member, and
 * keyword searches only in the shapes whose plan the client list chooses itself (`PagePlan` in
 * modules/customer-search/page-plan.ts). Drizzle's `execute` cannot name a statement, hence this.
 */
export function preparedRunnerOf(db: Pick<Database, 'execute'>): PreparedRunner | undefined {
  return (db as { [PREPARED_RUNNER]?: PreparedRunner })[PREPARED_RUNNER];
}

/** Gives `db` the runner `preparedRunnerOf` finds. */
export const attachPreparedRunner = (db: Database, run: PreparedRunner) => Object.defineProperty(db, PREPARED_RUNNER, { value: run });
