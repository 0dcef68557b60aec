import { openToolDatabase } from '../cli/tool-database';
import { runTool } from '../cli/tool-errors';
import { parseSweepCommand, runSweep } from './sweep-command';

/**
 * `npm run mot-sweep -- [--as-of YYYY-MM-DD] [--database-url URL | --pglite-dir DIR] [--force | --no-lock]`
 * Runs the MOT rules over every customer now and prints per-rule counts and timings.
 * Default: the daily batch (a day already done is reported, exit 0; `--force` re-runs it).
 * `--no-lock` evaluates the rules directly, as the data-change path does.
 */
runTool('mot-sweep', async () => {
  const command = parseSweepCommand(process.argv.slice(2));
  const { database, where } = await openToolDatabase(command.database, 'npm run mot-sweep');
  try {
    const [{ customers } = { customers: 0 }] = await database.query<{ customers: number }>(
      'select count(*)::int as customers from customer',
    );
    console.log(`MOT sweep over ${customers.toLocaleString('en')} customers (${where}) as of ${command.asOf}`);
    return await runSweep(database, command, (line) => console.log(line));
  } finally {
    await database.close();
  }
});
