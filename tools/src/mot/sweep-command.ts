import { parseArgs } from 'node:util';
import { announceSweep, runDailyMotSweep, runMotRules, type DatabaseHandle, type MotRunResult } from '@broker/server';
import { asOfOption } from '../cli/as-of-option';
import { DATABASE_FLAG_OPTIONS } from '../cli/tool-database';

export type SweepCommand = ReturnType<typeof parseSweepCommand>;

/** `[--as-of YYYY-MM-DD] [--force | --no-lock] [--database-url URL | --pglite-dir DIR]` */
export function parseSweepCommand(args: string[], now: Date = new Date()) {
  const { values } = parseArgs({
    args,
    options: {
      'as-of': { type: 'string' },
      force: { type: 'boolean', default: false },
      'no-lock': { type: 'boolean', default: false },
      ...DATABASE_FLAG_OPTIONS,
    },
  });
  return {
    /** Today in Hong Kong unless given: the day the server's own batch would run for. */
    asOf: asOfOption(values['as-of'], now),
    force: values.force,
    noLock: values['no-lock'],
    database: { 'database-url': values['database-url'], 'pglite-dir': values['pglite-dir'] },
  };
}

/** Exit code when another process is running the day's batch right now (EX_TEMPFAIL: try again later). */
export const SWEEP_BUSY_EXIT = 75;
/** Exit code when the database URL keeps no session for the batch's lock (EX_CONFIG: point it elsewhere). */
export const SWEEP_NO_SESSION_EXIT = 78;

/** Runs the day's batch (`--no-lock`: just the rules) and prints per-rule counts; a day already done names `--force` and exits 0. */
export async function runSweep(database: DatabaseHandle, command: SweepCommand, print: (line: string) => void): Promise<number> {
  let result: MotRunResult;
  if (command.noLock) result = await runMotRules(database, { asOf: command.asOf });
  else {
    const outcome = await runDailyMotSweep(database, { asOf: command.asOf, force: command.force, announce: announceSweep });
    if (outcome.status === 'done-already') {
      print(`The MOT batch for ${outcome.asOf} already ran: nothing to do. To run it again: npm run mot-sweep -- --force`);
      return 0;
    }
    if (outcome.status === 'busy') {
      print(`Another process is running the MOT batch for ${outcome.asOf} right now: try again when it has finished.`);
      return SWEEP_BUSY_EXIT;
    }
    if (outcome.status === 'no-session') {
      print(
        "This database URL keeps no session for the batch's lock (a transaction-mode pooler?): give --database-url the primary itself or a session-mode pooler entry.",
      );
      return SWEEP_NO_SESSION_EXIT;
    }
    result = outcome.result;
  }
  for (const [rule, inserted] of Object.entries(result.inserted)) {
    print(
      `  ${rule.padEnd(18)} ${String(inserted).padStart(9)} new   ${String(result.ruleMs[rule as keyof typeof result.ruleMs]).padStart(7)} ms`,
    );
  }
  print(`${result.total.toLocaleString('en')} new events in ${(result.elapsedMs / 1000).toFixed(1)} s (as of ${result.asOf})`);
  return 0;
}
