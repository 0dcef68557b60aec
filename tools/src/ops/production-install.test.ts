import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as esbuild from 'esbuild';
import type { Metafile } from 'esbuild';
import { buildServer } from '@broker/server/build';

/**
 * ADR 0031: `npm ci --omit=dev` installs what the compiled server and operator commands import, and a
 * workspace's `dependencies` list what its own code imports, nothing used only by tests or benchmarks.
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'broker-bundles-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

interface Manifest {
  workspaces?: string[];
  dependencies?: Record<string, string>;
}
const manifest = (dir: string) => JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as Manifest;

/** The root's workspaces (`apps/*` expanded), as folders relative to the root. */
const WORKSPACES = (manifest('.').workspaces ?? []).flatMap((pattern) =>
  pattern.endsWith('/*')
    ? readdirSync(join(ROOT, pattern.slice(0, -2))).flatMap((name) =>
        existsSync(join(ROOT, pattern.slice(0, -2), name, 'package.json')) ? [`${pattern.slice(0, -2)}/${name}`] : [],
      )
    : [pattern],
);

const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** The web app's sources Vite bundles: its src/ without tests and test helpers. */
function webSources(dir = join(ROOT, 'apps/web/src'), found: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) webSources(path, found);
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$|\/testing\//.test(path)) found.push(path);
  }
  return found;
}

/** Packages a file imports at run time: `import type` and `import { type X }`-only lines are left out. */
function runtimeImports(text: string): string[] {
  const statements = text.matchAll(
    /^\s*(?:import|export)\s+(type\s+)?([^'";]*?)\s*from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm,
  );
  return [...statements].flatMap(([, typeOnly, names = '', from, dynamic]) => {
    const specifier = from ?? dynamic!;
    if (typeOnly || /^\{\s*(type\s+\w+\s*(,\s*)?)+\}$/.test(names) || /^(\.|node:|virtual:)/.test(specifier)) return [];
    return [packageOf(specifier)];
  });
}

let metafile: Metafile;
beforeAll(async () => {
  metafile = await buildServer(esbuild, out);
});

/**
 * The code a production install runs, by workspace: the sources the compiled commands are built from (not
 * tests, test helpers, the benchmark or the standalone emulator), and the web app's. The e2e workspace has none.
 */
function productionSources(workspace: string): string[] {
  if (workspace === 'apps/web') return webSources();
  return Object.keys(metafile.inputs)
    .filter((file) => file.startsWith(`${workspace}/`))
    .map((file) => join(ROOT, file));
}

describe('a production install (npm ci --omit=dev) holds what runs, and only that', () => {
  test('each workspace declares in dependencies exactly the packages its production code imports', () => {
    const mismatches = WORKSPACES.flatMap((workspace) => {
      const imported = new Set(productionSources(workspace).flatMap((file) => runtimeImports(readFileSync(file, 'utf8'))));
      const declared = new Set(Object.keys(manifest(workspace).dependencies ?? {}));
      return [
        ...[...imported].filter((name) => !declared.has(name)).map((name) => `${workspace} imports ${name}, not in its dependencies`),
        ...[...declared]
          .filter((name) => !imported.has(name))
          .map((name) => `${workspace} lists ${name} in dependencies, but no code a production install runs imports it`),
      ];
    });
    expect(mismatches).toEqual([]);
  });

  test('the compiled commands import only packages npm ci --omit=dev installs where apps/server/dist finds them, and none of our TypeScript', () => {
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
    // Node looks in apps/server/node_modules, then the root's.
    const lockEntryOf = (name: string) => lock.packages[`apps/server/node_modules/${name}`] ?? lock.packages[`node_modules/${name}`];
    const imported = new Set(
      Object.values(metafile.outputs).flatMap((output) =>
        output.imports.filter((entry) => entry.external && !entry.path.startsWith('node:')).map((entry) => packageOf(entry.path)),
      ),
    );
    expect([...imported]).toEqual(expect.arrayContaining(['fastify', 'pg', 'csv-parse', 'cli-progress']));
    expect(
      [...imported].filter((name) => !lockEntryOf(name) || lockEntryOf(name)!.dev !== undefined || name.startsWith('@broker/')),
    ).toEqual([]);
    for (const command of ['start', 'seed', 'import', 'mot-sweep']) expect(existsSync(join(out, `${command}.js`)), command).toBe(true);
    const bundles = readdirSync(out).filter((name) => name.endsWith('.js'));
    expect(
      bundles.filter((name) => /from ["']@broker\//.test(readFileSync(join(out, name), 'utf8'))).map((name) => relative(out, name)),
    ).toEqual([]);
  });
});
