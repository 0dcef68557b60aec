// Compiles the server into ES modules, apps/server/dist/start.js and the chunks it imports, for `npm start` (ADR 0031).
// Our own workspaces (@broker/*, TypeScript sources) are bundled in; every other package stays an import,
// resolved from node_modules at run time, so the bundle needs only production dependencies.
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
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
    entryPoints: { [basename(outfile, '.js')]: `${ROOT}tools/src/ops/start.ts` },
    outdir: dirname(outfile),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    metafile: true,
    // What only an import() reaches (the WeCom emulator, ADR 0016) is a chunk of its own, loaded when imported:
    // a server on real WeCom never loads it. Chunks sit beside start.js, so paths taken from import.meta.url
    // (server-root.ts) are the same from every file.
    splitting: true,
    chunkNames: 'chunk-[hash]',
    write: false,
    logLevel: 'warning',
    plugins: [externalPackages],
    // Packages still written in CommonJS are imported by ES modules only, so no require shim is needed.
    banner: { js: '// Built by apps/server/scripts/build-server.mjs from the TypeScript sources; do not edit.' },
  });
  // Written whole, then renamed into place: a second replica starting from the same checkout never imports
  // a half-written bundle.
  mkdirSync(dirname(outfile), { recursive: true });
  for (const file of result.outputFiles) {
    const partial = `${file.path}.${process.pid}.partial`;
    writeFileSync(partial, file.contents);
    renameSync(partial, file.path);
  }
  // Chunks of earlier builds (named by their content) would pile up.
  const written = new Set(result.outputFiles.map((file) => basename(file.path)));
  for (const name of readdirSync(dirname(outfile)))
    if (/^chunk-.*\.js(\.map)?$/.test(name) && !written.has(name)) rmSync(join(dirname(outfile), name), { force: true });
  const imported = new Set();
  for (const output of Object.values(result.metafile.outputs))
    for (const entry of output.imports) if (entry.external && !entry.path.startsWith('node:')) imported.add(entry.path);
  return [...imported].sort();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const esbuild = await import('esbuild');
  const imported = await buildServer(esbuild);
  console.log(`server: built ${SERVER_BUNDLE} (${imported.length} imports from node_modules)`);
}
