// Compiles the server into one ES module, apps/server/dist/start.js, for `npm start` (ADR 0031).
// Our own workspaces (@broker/*, TypeScript sources) are bundled in; every other package stays an import,
// resolved from node_modules at run time, so the bundle needs only production dependencies.
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
export const SERVER_BUNDLE = fileURLToPath(new URL('../dist/start.js', import.meta.url));

/** Packages npm installs, not our workspaces: left as imports. */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@broker/') ? undefined : { path: args.path, external: true }));
  },
};

/**
 * Builds the bundle with esbuild (a dev dependency, handed in so this file imports nothing that
 * `npm ci --omit=dev` leaves out); returns the packages it imports, for the dependency check.
 */
export async function buildServer(esbuild, outfile = SERVER_BUNDLE) {
  const result = await esbuild.build({
    entryPoints: [`${ROOT}tools/src/ops/start.ts`],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
    plugins: [externalPackages],
    // Packages still written in CommonJS are imported by ES modules only, so no require shim is needed.
    banner: { js: '// Built by apps/server/scripts/build-server.mjs from the TypeScript sources; do not edit.' },
  });
  // Each package with the workspace that imports it: Node resolves it from that workspace's node_modules first.
  const imported = new Map();
  for (const [input, { imports }] of Object.entries(result.metafile.inputs)) {
    const workspace = /^(apps\/[^/]+|packages\/[^/]+|tools|e2e)\//.exec(relative(ROOT, resolve(input)))?.[1] ?? '.';
    for (const entry of imports)
      if (entry.external && !entry.path.startsWith('node:')) imported.set(`${workspace}\0${entry.path}`, { workspace, path: entry.path });
  }
  return [...imported.values()].sort((a, b) => a.path.localeCompare(b.path));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const esbuild = await import('esbuild');
  const imported = await buildServer(esbuild);
  console.log(`server: built ${SERVER_BUNDLE} (${new Set(imported.map((entry) => entry.path)).size} imports from node_modules)`);
}
