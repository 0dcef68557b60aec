import { hostname } from 'node:os';
import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../../db/client';
import { withSessionLock } from '../../db/advisory-lock';
import { ensureMonthPartitions } from '../../db/partitions';
import { motSweepRuns as run } from '../../db/schema';
import { columnName, columnNames, selection, selectQuery, selectRows } from '../../db/sql-rows';
import { runMotRules, type MotRunResult } from './mot-engine';
import { hongKongDay } from '@broker/domain';

/** Distinct from the migration (727_001) and demo-seed (727_002) locks. */
export const MOT_SWEEP_LOCK_KEY = 727_007;

export type MotSweepOutcome =
  | { status: 'ran'; result: MotRunResult }
  | { status: 'done-already'; asOf: string }
  | { status: 'busy'; asOf: string }
  /** A transaction-mode pooler without DATABASE_DIRECT_URL: no session to take the lock on. */
  | { status: 'no-session'; asOf: string };

export interface MotSweepOptions {
  asOf?: string;
  force?: boolean;
  /** Queues the day's WeCom cards before the day counts as done (ADR 0042): a replica dying in it re-runs the day. */
  announce?: (database: DatabaseHandle) => Promise<unknown>;
}

/**
 * The daily batch, once per Hong Kong day across replicas: under a session advisory lock, unless the day's
 * `mot_sweep_run` is finished. A replica dying mid-run leaves it unfinished for the next tick. `force` re-runs a
 * finished day (after a demo seed). No transaction lock could cover its many transactions: without a session,
 * `no-session`.
 */
export async function runDailyMotSweep(database: DatabaseHandle, options: MotSweepOptions = {}): Promise<MotSweepOutcome> {
  const asOf = options.asOf ?? hongKongDay();
  // Within one process (and PGlite, which one process opens) an in-memory guard suffices.
  if (sweeping.has(database)) return { status: 'busy', asOf };
  sweeping.add(database);
  try {
    return await sweepUnderLock(database, { ...options, asOf });
  } finally {
    sweeping.delete(database);
  }
}

const sweeping = new WeakSet<DatabaseHandle>();

const runFinished = selection({ finished: sql<boolean>`${run.finishedAt} is not null` });

type SweepDay = MotSweepOptions & { asOf: string };

async function sweepUnderLock(database: DatabaseHandle, day: SweepDay): Promise<MotSweepOutcome> {
  if (database.kind !== 'postgres') return sweep(database, day);
  const held = await withSessionLock(database, MOT_SWEEP_LOCK_KEY, 'try', () => sweep(database, day));
  return held.status === 'ran' ? held.value : { status: held.status, asOf: day.asOf };
}

async function sweep(database: DatabaseHandle, { asOf, force, announce }: SweepDay): Promise<MotSweepOutcome> {
  const [done] = await selectRows(database.db, selectQuery(runFinished, sql`from ${run} where ${run.runDate} = ${asOf}`));
  if (done?.finished && !force) return { status: 'done-already', asOf };
  const owner = `${hostname()}:${process.pid}`;
  await database.db.execute(
    sql`insert into ${run} (${columnNames(run.runDate, run.owner)}) values (${asOf}, ${owner})
        on conflict (${columnName(run.runDate)}) do update
          set ${columnName(run.owner)} = excluded.${columnName(run.owner)}, ${columnName(run.startedAt)} = now(), ${columnName(run.finishedAt)} = null`,
  );
  // Idempotent housekeeping: next months' history partitions (ADR 0053).
  await ensureMonthPartitions(database);
  const result = await runMotRules(database, { asOf });
  await announce?.(database);
  await database.db.execute(
    sql`update ${run} set ${columnName(run.finishedAt)} = now(), ${columnName(run.inserted)} = ${JSON.stringify(result.inserted)}::jsonb,
          ${columnName(run.elapsedMs)} = ${result.elapsedMs} where ${run.runDate} = ${asOf}`,
  );
  return { status: 'ran', result };
}

export interface MotScheduler {
  stop(): Promise<void>;
}

/** Checks at start and every `intervalMs` whether today's batch has run; whichever replica gets there first runs it. */
export function startMotScheduler(
  database: DatabaseHandle,
  options: {
    intervalMs: number;
    /** Default now. */
    firstAt?: number;
    announce?: MotSweepOptions['announce'];
    log: Record<'debug' | 'info' | 'error', (object: object, message: string) => void>;
  },
): MotScheduler {
  let running: Promise<void> | null = null;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = runDailyMotSweep(database, { announce: options.announce })
      .then((outcome) => {
        if (outcome.status === 'ran') {
          const { result } = outcome;
          options.log.info(
            { asOf: result.asOf, inserted: result.inserted, elapsedMs: result.elapsedMs },
            `mot sweep: ${result.total} new events in ${result.elapsedMs} ms`,
          );
        } else {
          // A finished day or a missing session (said once at start) is not worth an info line each tick.
          const level = outcome.status === 'busy' ? 'info' : 'debug';
          options.log[level]({ asOf: outcome.asOf, outcome: outcome.status }, `mot sweep: skipped (${outcome.status})`);
        }
      })
      .catch((error: unknown) => options.log.error({ err: error }, 'mot sweep failed; will retry on the next tick'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  const first = setTimeout(tick, Math.max(0, (options.firstAt ?? 0) - Date.now()));
  first.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(first);
      await running;
    },
  };
}
