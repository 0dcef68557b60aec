import cliProgress from 'cli-progress';
import { openToolDatabase } from '../cli/tool-database';
import { runTool } from '../cli/tool-errors';
import { parseSeedCommand, runSeed } from './seed-command';

/** `npm run seed -- --customers N --seed S [--staff K] [--as-of YYYY-MM-DD] [--reset]` */
runTool('seed', async () => {
  const command = parseSeedCommand(process.argv.slice(2));
  const { database, where } = await openToolDatabase(command.database, 'npm run seed', { poolMax: 12 });
  console.log(`Seeding ${command.customers.toLocaleString('en')} customers (seed ${command.seed}, as of ${command.asOf}) into ${where}`);
  try {
    const bar = new cliProgress.SingleBar(
      { format: 'customers [{bar}] {percentage}% {value}/{total} eta {eta_formatted}' },
      cliProgress.Presets.shades_classic,
    );
    // Started by the first progress report: a refusal (customers present, no --reset) draws no bar.
    let barStarted = false;
    const { seeded } = await runSeed(database, command, {
      onProgress: (done, total) => {
        if (!barStarted) bar.start(total, 0);
        barStarted = true;
        bar.update(done);
      },
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
      `Done in ${(seeded.elapsedMs / 1000).toFixed(1)} s: ${seeded.customers} customers over ${seeded.staff} staff, ${seeded.trades} trades, ${seeded.moneyMovements} money movements, ${seeded.transfers} stock transfers.`,
    );
    return 0;
  } finally {
    await database.close();
  }
});
