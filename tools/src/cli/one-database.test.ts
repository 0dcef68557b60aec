import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle } from '@broker/server';
import { hongKongDay } from '@broker/domain';
import { apiClient, expectOk, signInAs, startServerProcess, testDatabases, type ServerProcess } from '@broker/server/testing';
import { REPO_ROOT, runNpmScript } from './tool-process';

interface Target {
  /** What the user sets: DATABASE_URL, or PGLITE_DIR given relatively, as typed at the repository root. */
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

async function targetFor(engine: ReturnType<typeof testDatabases>[number]): Promise<Target> {
  if (engine.kind === 'postgres') {
    // Stays open beside the tools and the server, as an operator's psql would; drop() closes it.
    const database: DatabaseHandle & { drop(): Promise<void>; url?: string } = await engine.create();
    return { env: { DATABASE_URL: database.url! }, cleanup: () => database.drop() };
  }
  // Under the repository's own (git-ignored) data/, the way the README's default ./data/pglite is.
  const relative = `data/test-one-database-${Date.now()}-${randomBytes(3).toString('hex')}`;
  return {
    env: { PGLITE_DIR: `${relative}/pglite` },
    cleanup: async () => {
      rmSync(join(REPO_ROOT, relative), { recursive: true, force: true });
      rmSync(join(REPO_ROOT, 'tools', relative), { recursive: true, force: true });
    },
  };
}

for (const engine of testDatabases()) {
  describe(`the README's data commands act on the server's database (${engine.kind})`, () => {
    let target: Target;
    let server: ServerProcess | undefined;

    beforeAll(async () => {
      target = await targetFor(engine);
    });
    afterAll(async () => {
      await server?.stop();
      await target?.cleanup();
    });

    it('seed and import as written in the README, then the server shows both through the API', { timeout: 240_000 }, async () => {
      const seed = await runNpmScript('seed', ['--customers', '40', '--seed', '7'], { env: target.env });
      expect(seed.code, seed.output).toBe(0);
      expect(seed.output).toContain(`as of ${hongKongDay()}`);
      const imported = await runNpmScript('import', ['tools/fixtures/import-sample'], { env: target.env });
      expect(imported.code, imported.output).toBe(0);
      if (engine.kind === 'pglite') {
        expect(existsSync(join(REPO_ROOT, target.env.PGLITE_DIR!))).toBe(true);
        expect(existsSync(join(REPO_ROOT, 'tools', target.env.PGLITE_DIR!)), 'a tool wrote a database under tools/').toBe(false);
      }

      server = await startServerProcess({ env: target.env });
      const api = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'chanwaiman'));
      const found = await api.searchCustomers({ keyword: 'CHAN Tai Man' });
      expectOk(found);
      expect(found.body.data.list.map((row) => row.customerNo)).toContain('B00001');
      const stat = await api.statCustomers({});
      // The seed's customers of chanwaiman, and the imported ones.
      expect(stat.body.data?.clients).toBeGreaterThan(3);
      // The seed ran today's MOT batch: the list is populated without waiting for the server's schedule.
      const days = await api.getTodoDates();
      expectOk(days);
      expect(days.body.data.reduce((sum, day) => sum + day.count, 0)).toBeGreaterThan(0);
    });

    it(
      engine.kind === 'pglite'
        ? 'a tool is refused at once while the server holds the PGlite directory, and so is a second server'
        : 'on PostgreSQL a tool works beside the running server',
      { timeout: 120_000 },
      async () => {
        expect(server, 'the server of the previous test').toBeDefined();
        const sweep = await runNpmScript('mot-sweep', [], { env: target.env });
        if (engine.kind === 'postgres') {
          expect(sweep.code, sweep.output).toBe(0);
          return;
        }
        expect(sweep.code, sweep.output).toBe(1);
        expect(sweep.output).toMatch(
          new RegExp(
            `PGLITE_DIR \\S+ is in use by process ${server!.child.pid} \\(server \\(apps/server/src/main\\.ts\\), since \\d{4}-\\d\\d-\\d\\dT[^)]*\\): stop it, or set DATABASE_URL to use PostgreSQL`,
          ),
        );
        // Refused before opening the database: nothing was migrated or swept (no timing: a loaded machine varies).
        expect(sweep.output).not.toMatch(/migrat|new events/i);
        await expect(startServerProcess({ env: target.env })).rejects.toThrow(/is in use by process \d+ \(server/);
      },
    );

    it('a second mot-sweep on a day already done is an ordinary exit that names --force', { timeout: 120_000 }, async () => {
      await server?.stop();
      server = undefined;
      const sweep = await runNpmScript('mot-sweep', [], { env: target.env });
      expect(sweep.code, sweep.output).toBe(0);
      expect(sweep.output).toContain(`The MOT batch for ${hongKongDay()} already ran`);
      expect(sweep.output).toContain('--force');
      expect(sweep.output).not.toMatch(/npm error/);
      const forced = await runNpmScript('mot-sweep', ['--force'], { env: target.env });
      expect(forced.code, forced.output).toBe(0);
      expect(forced.output).toMatch(/new events in/);
    });
  });
}
