import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { clearCustomerData, hasCustomers, openDatabase, seedDemoData } from '@broker/server';

/** `npm run seed -- --customers N --seed S [--staff K] [--as-of YYYY-MM-DD] [--reset]` */
async function main() {
  const { values } = parseArgs({
    options: {
      customers: { type: 'string', default: '2000' },
      seed: { type: 'string', default: '1' },
      staff: { type: 'string', default: '10' },
      'as-of': { type: 'string' },
      reset: { type: 'boolean', default: false },
      'database-url': { type: 'string' },
      'pglite-dir': { type: 'string' },
    },
  });
  const customers = Number(values.customers);
  const seed = Number(values.seed);
  const staff = Number(values.staff);
  if (!Number.isInteger(customers) || customers < 1) throw new Error('--customers must be a positive integer');
  if (!Number.isInteger(seed)) throw new Error('--seed must be an integer');
  if (!Number.isInteger(staff) || staff < 4) throw new Error('--staff must be an integer of at least 4');
  const asOf = values['as-of'] ?? new Date().toISOString().slice(0, 10);

  const url = values['database-url'] ?? process.env.DATABASE_URL;
  const pgliteDir = values['pglite-dir'] ?? process.env.PGLITE_DIR ?? './data/pglite';
  const database = await openDatabase({ url, pgliteDir, poolMax: 12 });
  console.log(
    `Seeding ${customers.toLocaleString('en')} customers (seed ${seed}, as of ${asOf}) into ${database.kind === 'postgres' ? 'PostgreSQL' : `PGlite at ${pgliteDir}`}`,
  );
  try {
    if (await hasCustomers(database)) {
      if (!values.reset) throw new Error('the database already has customers: pass --reset to replace them');
      await clearCustomerData(database);
    }
    const bar = new cliProgress.SingleBar(
      { format: 'customers [{bar}] {percentage}% {value}/{total} eta {eta_formatted}' },
      cliProgress.Presets.shades_classic,
    );
    bar.start(customers, 0);
    const result = await seedDemoData(database, {
      customers,
      seed,
      staff,
      asOf,
      onProgress: (done) => bar.update(done),
      log: (message) => {
        bar.stop();
        console.log(message);
      },
    });
    bar.stop();
    if (database.kind === 'postgres') {
      const [size] = await database.query<{ size: string }>('select pg_size_pretty(pg_database_size(current_database())) as size');
      console.log(`database size: ${size?.size}`);
    }
    console.log(
      `Done in ${(result.elapsedMs / 1000).toFixed(1)} s: ${result.customers} customers over ${result.staff} staff, ${result.trades} trades, ${result.moneyMovements} money movements, ${result.transfers} stock transfers.`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error('seed failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
