import { parseArgs } from 'node:util';
import { openDatabase, runDailyMotSweep, runMotRules } from '@broker/server';

/**
 * `npm run mot-sweep -w @broker/tools -- [--as-of YYYY-MM-DD] [--database-url URL] [--force | --no-lock]`
 * Runs the MOT rules over every customer now and prints per-rule counts and timings.
 * Default: the daily batch (skips a day already done; `--force` re-runs it). `--no-lock` evaluates the
 * rules directly, as the data-change path does.
 */
async function main() {
  const { values } = parseArgs({
    options: {
      'as-of': { type: 'string' },
      'database-url': { type: 'string' },
      'pglite-dir': { type: 'string' },
      force: { type: 'boolean', default: false },
      'no-lock': { type: 'boolean', default: false },
    },
  });
  const database = await openDatabase({
    url: values['database-url'] ?? process.env.DATABASE_URL,
    pgliteDir: values['pglite-dir'] ?? process.env.PGLITE_DIR ?? './data/pglite',
  });
  try {
    const [{ customers } = { customers: 0 }] = await database.query<{ customers: number }>(
      'select count(*)::int as customers from customer',
    );
    const asOf = values['as-of'];
    console.log(`MOT sweep over ${customers.toLocaleString('en')} customers (${database.kind})${asOf ? ` as of ${asOf}` : ''}`);
    const result = values['no-lock']
      ? await runMotRules(database, asOf ? { asOf } : {})
      : await runDailyMotSweep(database, { ...(asOf ? { asOf } : {}), force: values.force }).then((outcome) => {
          if (outcome.status !== 'ran')
            throw new Error(`not run: ${outcome.status} for ${outcome.asOf} (pass --force to re-run a finished day)`);
          return outcome.result;
        });
    for (const [rule, inserted] of Object.entries(result.inserted)) {
      console.log(
        `  ${rule.padEnd(18)} ${String(inserted).padStart(9)} new   ${String(result.ruleMs[rule as keyof typeof result.ruleMs]).padStart(7)} ms`,
      );
    }
    console.log(`${result.total.toLocaleString('en')} new events in ${(result.elapsedMs / 1000).toFixed(1)} s (as of ${result.asOf})`);
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
