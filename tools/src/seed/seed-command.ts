import { parseArgs } from 'node:util';
import {
  announceSweep,
  clearCustomerData,
  hasCustomers,
  runDailyMotSweep,
  seedDemoData,
  type DatabaseHandle,
  type SeedResult,
} from '@broker/server';
import { asOfOption } from '../cli/as-of-option';
import { DATABASE_FLAG_OPTIONS } from '../cli/tool-database';
import { UsageError } from '../cli/tool-errors';

export type SeedCommand = ReturnType<typeof parseSeedCommand>;

/** `--customers N --seed S [--staff K] [--as-of YYYY-MM-DD] [--reset] [--database-url URL | --pglite-dir DIR]` */
export function parseSeedCommand(args: string[], now: Date = new Date()) {
  const { values } = parseArgs({
    args,
    options: {
      customers: { type: 'string', default: '2000' },
      seed: { type: 'string', default: '1' },
      staff: { type: 'string', default: '10' },
      'as-of': { type: 'string' },
      reset: { type: 'boolean', default: false },
      ...DATABASE_FLAG_OPTIONS,
    },
  });
  const customers = Number(values.customers);
  const seed = Number(values.seed);
  const staff = Number(values.staff);
  if (!Number.isInteger(customers) || customers < 1) throw new UsageError('--customers must be a positive integer');
  if (!Number.isInteger(seed)) throw new UsageError('--seed must be an integer');
  if (!Number.isInteger(staff) || staff < 4) throw new UsageError('--staff must be an integer of at least 4');
  return {
    customers,
    seed,
    staff,
    /** Last day of generated history, and the day the MOT batch runs for: today in Hong Kong by default. */
    asOf: asOfOption(values['as-of'], now),
    reset: values.reset,
    database: { 'database-url': values['database-url'], 'pglite-dir': values['pglite-dir'] },
  };
}

export interface SeedHooks {
  onProgress?: (done: number, total: number) => void;
  log: (message: string) => void;
}

/** Fills the database (replacing its customers with `--reset`), then runs the seed day's MOT batch, as the server's first start does. */
export async function runSeed(
  database: DatabaseHandle,
  command: SeedCommand,
  hooks: SeedHooks,
): Promise<{ seeded: SeedResult; motEvents: number }> {
  if (await hasCustomers(database)) {
    if (!command.reset) throw new UsageError('the database already has customers: pass --reset to replace them');
    // Also forgets which days' MOT batches ran: the events they raised are gone with the customers.
    await clearCustomerData(database);
  }
  const { customers, seed, staff, asOf } = command;
  const seeded = await seedDemoData(database, { customers, seed, staff, asOf, onProgress: hooks.onProgress, log: hooks.log });
  const outcome = await runDailyMotSweep(database, { asOf: command.asOf, force: true, announce: announceSweep });
  // `busy`: another process on this PostgreSQL is running that day's batch over the new data right now.
  const motEvents = outcome.status === 'ran' ? outcome.result.total : 0;
  const notRun = {
    busy: 'being run by another process',
    'done-already': 'already ran',
    'no-session':
      'not run: this database URL keeps no session for its lock (a transaction-mode pooler?); run npm run mot-sweep with a direct URL',
  };
  hooks.log(`MOT batch for ${command.asOf}: ${outcome.status === 'ran' ? `${motEvents} events` : notRun[outcome.status]}`);
  return { seeded, motEvents };
}
