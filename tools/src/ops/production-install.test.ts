import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import * as esbuild from 'esbuild';
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

/** Tests, test helpers and the benchmark: what may import a devDependency. The e2e workspace has no src/. */
const TEST_ONLY = /\.test\.tsx?$|\/testing\/|\/bench\//;

function productionSources(dir: string, found: string[] = []): string[] {
  if (!existsSync(dir)) return found;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) productionSources(path, found);
    else if (/\.(ts|tsx|mjs)$/.test(entry.name) && !TEST_ONLY.test(path)) found.push(path);
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

describe('a production install (npm ci --omit=dev) holds what runs, and only that', () => {
  test('each workspace declares in dependencies exactly the packages its code imports', () => {
    const mismatches = WORKSPACES.flatMap((workspace) => {
      const imported = new Set(
        productionSources(join(ROOT, workspace, 'src')).flatMap((file) => runtimeImports(readFileSync(file, 'utf8'))),
      );
      const declared = new Set(Object.keys(manifest(workspace).dependencies ?? {}));
      return [
        ...[...imported].filter((name) => !declared.has(name)).map((name) => `${workspace} imports ${name}, not in its dependencies`),
        ...[...declared]
          .filter((name) => !imported.has(name))
          .map((name) => `${workspace} lists ${name} in dependencies, but only tests, benchmarks or nothing import it`),
      ];
    });
    expect(mismatches).toEqual([]);
  });

  test('the compiled commands import only packages npm ci --omit=dev installs where apps/server/dist finds them, and none of our TypeScript', async () => {
    const metafile = (await buildServer(esbuild, out)) as {
      outputs: Record<string, { imports: Array<{ path: string; external?: boolean }> }>;
    };
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
