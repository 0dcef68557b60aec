import { parseArgs } from 'node:util';
import { existsSync, statSync } from 'node:fs';
import { openDatabase } from '@broker/server';
import { importFolder } from './import-folder';

/** `npm run import -- <folder> [--corp fxhl] [--database-url URL]`; exits 2 when any row was rejected. */
async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { corp: { type: 'string', default: 'fxhl' }, 'database-url': { type: 'string' }, 'pglite-dir': { type: 'string' } },
  });
  const folder = positionals[0];
  if (!folder || !existsSync(folder) || !statSync(folder).isDirectory())
    throw new Error('usage: npm run import -- <folder with CSV files>');
  const url = values['database-url'] ?? process.env.DATABASE_URL;
  const pgliteDir = values['pglite-dir'] ?? process.env.PGLITE_DIR ?? './data/pglite';
  const database = await openDatabase({ url, pgliteDir });
  try {
    const started = performance.now();
    const report = await importFolder(database, folder, { corpCode: values.corp });
    if (report.files.length === 0) console.log(`no known CSV files in ${folder}`);
    for (const file of report.files) {
      console.log(
        `${file.file.padEnd(20)} ${file.rows} rows: ${file.inserted} inserted, ${file.updated} updated, ${file.unchanged} unchanged, ${file.rejected} rejected`,
      );
    }
    for (const error of report.errors) console.log(`  ${error.file}:${error.line}: ${error.reason}`);
    console.log(
      `customer summaries refreshed: ${report.summariesRefreshed}; MOT events created: ${report.motEventsCreated}; done in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    if (report.errors.length > 0) process.exitCode = 2;
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error('import failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
