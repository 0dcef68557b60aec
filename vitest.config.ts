import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { contractWire } from './apps/web/vite-plugins/contract-wire';

export default defineConfig({
  test: {
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
          // One line at the end of the run when the PostgreSQL variants were skipped.
          globalSetup: ['apps/server/src/testing/postgres-suite-notice.ts'],
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
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
