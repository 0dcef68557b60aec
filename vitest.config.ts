import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { contractWire } from './apps/web/vite-plugins/contract-wire';

export default defineConfig({
  test: {
    // A file per core, e2e files too (two at a time on two cores, each on its own server and database, in contexts of
    // the one Chromium): much of a file's time is spent waiting on PostgreSQL, Chromium or a child process. Vitest's
    // default leaves a core idle, and e2e files run one at a time after everything else (ADR 0057).
    maxWorkers: availableParallelism(),
    reporters: process.env.CI === 'true' ? ['default', ['json', { outputFile: '.vitest-results/results.json' }]] : ['default'],
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/server/src/**/*.test.ts',
            'apps/wecom-emulator/src/**/*.test.ts',
            'tools/src/**/*.test.ts',
          ],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // A worker imports the server once for all its files (ADR 0057): these tests mock nothing and set no
          // environment, and every database or app a file uses is its own.
          isolate: false,
          // The migrated templates every test database is copied from (ADR 0057); one line at the end of the run when the
          // PostgreSQL variants were skipped.
          globalSetup: ['apps/server/src/testing/database-templates.ts', 'apps/server/src/testing/postgres-suite-notice.ts'],
        },
      },
      {
        plugins: [react(), contractWire()],
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          setupFiles: ['apps/web/src/testing/setup.ts'],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['e2e/**/*.e2e.test.ts'],
          // A worker imports the server, playwright and the contract once for all its files, not once a file: each file
          // still starts its own server on its own database and closes what it opened (ADR 0057).
          isolate: false,
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // One Chromium for the run, and the migrated template each file's server database is copied from.
          globalSetup: ['apps/server/src/testing/database-templates.ts', 'e2e/support/browser-server.ts'],
        },
      },
    ],
  },
});
