import { openToolDatabase } from '../cli/tool-database';
import { seedProgress } from '../cli/seed-progress';
import { runTool } from '../cli/tool-errors';
import { parseSeedCommand, runSeed } from './seed-command';

/** `npm run seed -- --customers N --seed S [--staff K] [--as-of YYYY-MM-DD] [--reset]` */
runTool('seed', async () => {
  const command = parseSeedCommand(process.argv.slice(2));
  const { database, where } = await openToolDatabase(command.database, 'npm run seed', { poolMax: 12 });
  console.log(`Seeding ${command.customers.toLocaleString('en')} customers (seed ${command.seed}, as of ${command.asOf}) into ${where}`);
  try {
    const progress = seedProgress((line) => console.log(line));
    const { seeded } = await runSeed(database, command, progress);
    progress.stop();
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
