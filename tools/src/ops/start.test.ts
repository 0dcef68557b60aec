import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { ConfigError } from '@broker/server';
import { prepareStart } from './start';
import { webSourcesDigest } from './web-build-freshness';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** What `npm start` runs (package.json): the launcher of the compiled commands. */
const LAUNCHER = join(ROOT, 'apps/server/scripts/run.mjs');
const roots: string[] = [];
afterEach(() => roots.splice(0).forEach((root) => rmSync(root, { recursive: true, force: true })));

/** A checkout in miniature: the web app's, the contract's and the domain's sources, and what a build leaves behind. */
function checkout() {
  const root = mkdtempSync(join(tmpdir(), 'broker-start-'));
  roots.push(root);
  mkdirSync(join(root, 'apps/web/src'), { recursive: true });
  mkdirSync(join(root, 'packages/contract/src'), { recursive: true });
  mkdirSync(join(root, 'packages/domain/src'), { recursive: true });
  writeFileSync(join(root, 'apps/web/src/main.tsx'), 'export const app = 1;');
  writeFileSync(join(root, 'apps/web/src/main.test.tsx'), 'test');
  writeFileSync(join(root, 'packages/contract/src/index.ts'), 'export const contract = 1;');
  writeFileSync(join(root, 'packages/domain/src/index.ts'), 'export const domain = 1;');
  writeFileSync(join(root, 'package-lock.json'), '{}');
  return root;
}

function starter(root: string, source: NodeJS.ProcessEnv = {}) {
  const builds: number[] = [];
  const run = (env: NodeJS.ProcessEnv = source) =>
    prepareStart({
      root,
      source: { PGLITE_DIR: 'memory://', ...env },
      log: () => undefined,
      build: () => {
        builds.push(Date.now());
        mkdirSync(join(root, 'apps/web/dist/.vite'), { recursive: true });
        writeFileSync(join(root, 'apps/web/dist/index.html'), '<!doctype html>');
      },
    });
  return { run, builds };
}

describe('npm start: settings first, then the web app only when its sources changed', () => {
  test('builds once, then starts without building while nothing changed', () => {
    const start = starter(checkout());
    expect(start.run()).toMatchObject({ built: true, reason: expect.stringMatching(/no build/) });
    expect(start.run()).toMatchObject({ built: false, reason: 'up to date' });
    expect(start.run().built).toBe(false);
    expect(start.builds).toHaveLength(1);
  });

  test('rebuilds after a change to the web app, the contract, the domain, the lockfile or a VITE_ setting; not after a test file', () => {
    const root = checkout();
    const start = starter(root);
    start.run();
    writeFileSync(join(root, 'apps/web/src/main.test.tsx'), 'another test');
    expect(start.run().built).toBe(false);
    for (const file of ['apps/web/src/main.tsx', 'packages/contract/src/index.ts', 'packages/domain/src/index.ts', 'package-lock.json']) {
      writeFileSync(join(root, file), `changed ${file}`);
      expect(start.run(), file).toMatchObject({ built: true, reason: 'its sources changed since it was built' });
    }
    expect(start.run({ VITE_SENTRY_DSN: 'https://key@sentry.example.com/1' }).built).toBe(true);
    expect(start.builds).toHaveLength(6);
  });

  test('a build it did not make (npm run build by hand) is rebuilt once, since its sources are unknown', () => {
    const root = checkout();
    mkdirSync(join(root, 'apps/web/dist'), { recursive: true });
    writeFileSync(join(root, 'apps/web/dist/index.html'), '<!doctype html>');
    const start = starter(root);
    expect(start.run()).toMatchObject({ built: true, reason: expect.stringMatching(/not made by npm start/) });
    expect(start.run().built).toBe(false);
  });

  test('a bad setting stops it before any build, naming the variable', () => {
    const start = starter(checkout());
    expect(() => start.run({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => start.run({ DATABASE_URL: 'mysql://db/broker' })).toThrow(/DATABASE_URL="mysql:\/\/db\/broker": must be a postgres:\/\//);
    expect(start.builds).toHaveLength(0);
  });

  test('WEB_DIST_DIR set: that folder is served as it is, nothing is built', () => {
    const start = starter(checkout());
    expect(start.run({ WEB_DIST_DIR: '/srv/broker-web' })).toMatchObject({ built: false });
    expect(start.builds).toHaveLength(0);
  });

  test('the digest covers contents, not times, and ignores build output', () => {
    const root = checkout();
    const before = webSourcesDigest(root);
    mkdirSync(join(root, 'apps/web/dist'), { recursive: true });
    writeFileSync(join(root, 'apps/web/dist/index.html'), 'built');
    writeFileSync(join(root, 'apps/web/src/main.tsx'), 'export const app = 1;');
    expect(webSourcesDigest(root)).toBe(before);
  });

  test('the real command: a bad setting exits 1 with the variable named and no build started', async () => {
    const { child, output } = spawnLauncher({ PORT: 'eighty' });
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(1);
    expect(output()).toMatch(/Invalid configuration:\s+- PORT="eighty": must be a number/);
    expect(output()).not.toMatch(/web app|vite/);
  });

  test('without the build tools (npm ci --omit=dev): the build npm run build left is served; none at all stops, naming npm run build', () => {
    const root = checkout();
    let builds = 0;
    const run = () =>
      prepareStart({ root, source: { PGLITE_DIR: 'memory://' }, log: () => undefined, build: () => builds++, canBuild: false });
    expect(run).toThrow(/no build in .*apps\/web\/dist.*npm run build/);
    mkdirSync(join(root, 'apps/web/dist'), { recursive: true });
    writeFileSync(join(root, 'apps/web/dist/index.html'), '<!doctype html>');
    expect(run()).toMatchObject({ built: false, reason: 'served as built: no build tools' });
    expect(builds).toBe(0);
  });
});

describe('npm start runs compiled JavaScript (ADR 0031)', () => {
  test('npm start serves the app from the compiled bundle', async () => {
    const web = mkdtempSync(join(tmpdir(), 'broker-web-'));
    roots.push(web);
    writeFileSync(join(web, 'index.html'), '<!doctype html><title>compiled</title>');
    const { child, output } = spawnLauncher({
      PORT: '0',
      HOST: '127.0.0.1',
      PGLITE_DIR: 'memory://',
      SEED_DEMO: 'false',
      WEB_DIST_DIR: web,
    });
    try {
      const base = await waitFor(() => /is up on (http:\/\/127\.0\.0\.1:\d+)/.exec(output())?.[1], 90_000);
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      expect(await (await fetch(`${base}/`)).text()).toContain('compiled');
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
});

function spawnLauncher(env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [LAUNCHER, 'start'], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { child, output: () => text };
}

async function waitFor<T>(probe: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('the server did not say it was up in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
