import { parseArgs } from 'node:util';
import { existsSync, statSync } from 'node:fs';
import { resolveUserPath } from '@broker/server';
import { DATABASE_FLAG_OPTIONS, openToolDatabase } from '../cli/tool-database';
import { runTool, UsageError } from '../cli/tool-errors';
import { importFolder, NOT_UTF8 } from './import-folder';

/** `npm run import -- <folder> [--corp fxhl] [--database-url URL | --pglite-dir DIR]`; exits 2 when any row was rejected. */
runTool('import', async () => {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { corp: { type: 'string', default: 'fxhl' }, ...DATABASE_FLAG_OPTIONS },
  });
  if (!positionals[0]) throw new UsageError('usage: npm run import -- <folder with CSV files>');
  // Relative to where the command was typed, as the README's `npm run import -- tools/fixtures/…` means.
  const folder = resolveUserPath(positionals[0]);
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new UsageError(`${folder} is not a folder (usage: npm run import -- <folder with CSV files>)`);
  const { database, where } = await openToolDatabase(values, 'npm run import');
  try {
    console.log(`Importing ${folder} into ${where}`);
    const started = performance.now();
    const report = await importFolder(database, folder, { corpCode: values.corp });
    if (report.files.length === 0) console.log(`no known CSV files in ${folder}`);
    for (const file of report.files) {
      console.log(
        `${file.file.padEnd(20)} ${file.rows} rows: ${file.inserted} inserted, ${file.updated} updated, ${file.unchanged} unchanged, ${file.rejected} rejected`,
      );
    }
    for (const error of report.errors) console.log(`  ${error.file}:${error.line}: ${error.reason}`);
    if (report.errors.some((error) => error.reason.startsWith(NOT_UTF8)))
      console.log(`  lines marked "${NOT_UTF8}" were not imported: save the file as UTF-8 (Excel: "CSV UTF-8") and import it again`);
    console.log(
      `customer summaries refreshed: ${report.summariesRefreshed}; MOT events created: ${report.motEventsCreated}; WeCom cards queued: ${report.motCardsQueued}; done in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    return report.errors.length > 0 ? 2 : 0;
  } finally {
    await database.close();
  }
});
