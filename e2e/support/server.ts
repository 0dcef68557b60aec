import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DatabaseHandle } from '@broker/server';
import { pgliteTestDatabase, startTestApp, type RunningTestApp } from '@broker/server/testing';

/** E2E_WEB_DIST lets parallel work build the web app elsewhere (`vite build --outDir …`) without racing. */
export const WEB_DIST = process.env.E2E_WEB_DIST ?? fileURLToPath(new URL('../../apps/web/dist/', import.meta.url));

export interface E2eServer extends RunningTestApp {
  database: DatabaseHandle;
}

/**
 * The real server (PGlite in memory, a copy of the run's migrated template; WeCom emulator) serving the built web app;
 * `settings` as the environment would give them.
 */
export async function startE2eServer(
  settings: Omit<NonNullable<Parameters<typeof startTestApp>[1]>, 'WEB_DIST_DIR'> = {},
): Promise<E2eServer> {
  if (!existsSync(join(WEB_DIST, 'index.html'))) throw new Error(`${WEB_DIST} has no build: run \`npm run build\` first (npm test does)`);
  const database = await pgliteTestDatabase.create();
  const running = await startTestApp(database, { ...settings, WEB_DIST_DIR: WEB_DIST });
  return {
    ...running,
    database,
    async close() {
      await running.close();
      await database.drop();
    },
  };
}
