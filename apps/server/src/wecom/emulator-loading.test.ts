import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { buildServer, SERVER_DIR } from '@broker/server/build';

interface BundleFile {
  name: string;
  code: string;
  /** The source modules it holds (its source map's `sources`), from the repository's root. */
  sources: string[];
  /** Files of ours it imports statically, and packages it imports (always statically). */
  staticImports: string[];
  /** `import("./x.js")` it makes, with the source module that makes it (esbuild's `// path` comment above). */
  dynamicImports: { target: string; from: string }[];
}

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const EMULATOR_SOURCE = /^apps\/wecom-emulator\/src\//;

function readBundle(dir: string): Map<string, BundleFile> {
  const files = new Map<string, BundleFile>();
  for (const name of readdirSync(dir).filter((file) => file.endsWith('.js'))) {
    const code = readFileSync(join(dir, name), 'utf8');
    const map = JSON.parse(readFileSync(join(dir, `${name}.map`), 'utf8')) as { sources: string[] };
    const sources = map.sources.map((source) => relative(REPO_ROOT, resolve(dir, source)));
    const staticImports = [...code.matchAll(/(?:^|\n)import\s+(?:[^"';]*?\s*from\s*)?"([^"]+)";/g)].map((match) =>
      match[1]!.replace(/^\.\//, ''),
    );
    const dynamicImports: BundleFile['dynamicImports'] = [];
    let module = '';
    for (const line of code.split('\n')) {
      module = /^\/\/ ((?:apps|packages|tools)\/\S+)$/.exec(line)?.[1] ?? module;
      for (const match of line.matchAll(/\bimport\("\.\/([^"]+)"\)/g)) dynamicImports.push({ target: match[1]!, from: module });
    }
    files.set(name, { name, code, sources, staticImports, dynamicImports });
  }
  return files;
}

/** The files loaded with `entry`, following static imports and any dynamic import `follow` allows. */
function loadedWith(files: Map<string, BundleFile>, entry: string, follow: (target: string) => boolean): Set<string> {
  const loaded = new Set<string>();
  const visit = (name: string) => {
    const file = files.get(name);
    if (!file || loaded.has(name)) return;
    loaded.add(name);
    for (const target of file.staticImports) visit(target);
    for (const { target } of file.dynamicImports) if (follow(target)) visit(target);
  };
  visit(entry);
  return loaded;
}

/**
 * Issue 37.2: the WeCom emulator is a stand-in for development and tests. The production server
 * (`npm run build` → apps/server/dist/) loads it only in emulator mode, through the one `import()` in
 * wecom/emulator-mount.ts, so a server talking to real WeCom never loads it, nor the packages only it uses.
 */
describe('the WeCom emulator in the compiled server', () => {
  let root: string;
  let files: Map<string, BundleFile>;
  let emulatorFiles: string[];

  beforeAll(async () => {
    // Beside the real build, as the real build sits in apps/server/dist: the bundle finds the migrations at
    // ../drizzle and node_modules by walking up, as it does there.
    mkdirSync(join(SERVER_DIR, 'dist'), { recursive: true });
    root = mkdtempSync(join(SERVER_DIR, 'dist', 'emulator-check-'));
    symlinkSync(join(SERVER_DIR, 'drizzle'), join(root, 'drizzle'));
    mkdirSync(join(root, 'web'));
    writeFileSync(join(root, 'web', 'index.html'), '<!doctype html><title>compiled</title>');
    await buildServer(esbuild, join(root, 'dist'));
    files = readBundle(join(root, 'dist'));
    emulatorFiles = [...files.values()]
      .filter((file) => file.sources.some((source) => EMULATOR_SOURCE.test(source)))
      .map((file) => file.name);
  }, 120_000);
  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('sits in files of its own, reached only by the import() in wecom/emulator-mount.ts', () => {
    expect(emulatorFiles.length).toBeGreaterThan(0);
    const serverMain = [...files.values()].find((file) => file.sources.some((source) => source === 'apps/server/src/main.ts'));
    const withoutEmulator = loadedWith(files, 'start.js', (target) => !emulatorFiles.includes(target));
    expect(withoutEmulator).toContain(serverMain?.name);
    expect(emulatorFiles.filter((name) => withoutEmulator.has(name))).toEqual([]);
    const into = [...files.values()].flatMap((file) =>
      file.dynamicImports.filter(({ target }) => emulatorFiles.includes(target)).map(({ from }) => from),
    );
    expect(into).toEqual(['apps/server/src/wecom/emulator-mount.ts']);
    // And the packages only it uses stay out of a real-WeCom server: npm ci --omit=dev may leave them out.
    const packagesLoaded = new Set([...withoutEmulator].flatMap((name) => files.get(name)!.staticImports));
    expect(packagesLoaded).not.toContain('@fastify/formbody');
  });

  /** Starts the compiled server as `npm start` does (its `start()`), with the emulator's files deleted. */
  async function startCompiled(env: Record<string, string>) {
    const entry = pathToFileURL(join(root, 'dist', 'start.js')).href;
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { start } = await import(${JSON.stringify(entry)}); await start({ motSweepIntervalMs: 0, wecomProbeIntervalMs: 0 });`,
      ],
      {
        env: {
          PATH: process.env.PATH,
          PORT: '0',
          HOST: '127.0.0.1',
          PGLITE_DIR: 'memory://',
          WEB_DIST_DIR: join(root, 'web'),
          SEED_DEMO: 'false',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = once(child, 'exit');
    const started = Date.now();
    while (!/is up on (http:\/\/[\d.]+:\d+)/.test(output) && child.exitCode === null && Date.now() - started < 90_000)
      await new Promise((resolve) => setTimeout(resolve, 50));
    return {
      baseUrl: /is up on (http:\/\/[\d.]+:\d+)/.exec(output)?.[1],
      output: () => output,
      stop: async () => {
        if (child.exitCode === null) child.kill('SIGTERM');
        return ((await exited) as [number | null])[0];
      },
    };
  }

  it('runs with real WeCom without the emulator on disk; emulator mode is what needs it', { timeout: 240_000 }, async () => {
    for (const name of emulatorFiles) rmSync(join(root, 'dist', name));

    const real = await startCompiled({ WECOM_MODE: 'real' });
    try {
      expect(real.baseUrl, real.output()).toBeDefined();
      expect(await (await fetch(`${real.baseUrl}/readyz`)).json()).toEqual({ status: 'ready' });
      expect((await fetch(`${real.baseUrl}/wecom/connect/oauth2/authorize`)).status).toBe(404);
    } finally {
      await real.stop();
    }

    const emulated = await startCompiled({ WECOM_MODE: 'emulator' });
    expect(await emulated.stop()).toBe(1);
    expect(emulated.output()).toMatch(new RegExp(`Server failed to start: .*${emulatorFiles[0]!.replace('.', '\\.')}`));
  });
});
