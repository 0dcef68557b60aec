import { loadDatabaseTarget, openDatabase } from '@broker/server';

/** The parseArgs options every tool that opens the database accepts. */
export const DATABASE_FLAG_OPTIONS = {
  'database-url': { type: 'string' },
  'pglite-dir': { type: 'string' },
} as const;

export type DatabaseFlags = { [flag in keyof typeof DATABASE_FLAG_OPTIONS]?: string | undefined };

/** Opens (and migrates) the database a tool was pointed at, found as the server finds it; `command` names the PGlite holder. */
export async function openToolDatabase(flags: DatabaseFlags, command: string, options: { poolMax?: number } = {}) {
  const target = loadDatabaseTarget({ databaseUrl: flags['database-url'], pgliteDir: flags['pglite-dir'] });
  const database = await openDatabase({ url: target.url, pgliteDir: target.pgliteDir, holder: command, ...options });
  return { database, where: database.kind === 'postgres' ? 'PostgreSQL' : `PGlite at ${target.pgliteDir}` };
}
