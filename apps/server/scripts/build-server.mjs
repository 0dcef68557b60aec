// Compiles the server and the operator commands into ES modules in apps/server/dist/ (ADR 0031). Our workspaces
// are bundled in; every other package stays an import, so the bundles need only production dependencies.
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
export const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));
export const DIST_DIR = join(SERVER_DIR, 'dist');

/** Each operator command by the file it is compiled from. */
export const COMMANDS = {
  start: 'tools/src/ops/start.ts',
  seed: 'tools/src/seed/main.ts',
  import: 'tools/src/import/main.ts',
  'mot-sweep': 'tools/src/mot/main.ts',
};

/** npm's packages, not our workspaces: left as imports. */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@broker/') ? undefined : { path: args.path, external: true }));
  },
};

/** esbuild is handed in, so this file imports nothing `npm ci --omit=dev` leaves out; returns esbuild's metafile. */
export async function buildServer(esbuild, outdir = DIST_DIR) {
  const result = await esbuild.build({
    entryPoints: Object.fromEntries(Object.entries(COMMANDS).map(([name, source]) => [name, join(ROOT, source)])),
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    metafile: true,
    // What only an import() reaches (the WeCom emulator, ADR 0016) is its own chunk; chunks sit beside the commands,
    // so paths from import.meta.url are the same from every file.
    splitting: true,
    chunkNames: 'chunk-[hash]',
    write: false,
    logLevel: 'warning',
    plugins: [externalPackages],
    banner: { js: '// Built by apps/server/scripts/build-server.mjs from the TypeScript sources; do not edit.' },
  });
  // Written whole, then renamed: a replica starting from the same checkout never imports a half-written bundle.
  mkdirSync(outdir, { recursive: true });
  for (const file of result.outputFiles) {
    const partial = `${file.path}.${process.pid}.partial`;
    writeFileSync(partial, file.contents);
    renameSync(partial, file.path);
  }
  // Chunks of earlier builds (named by content) would pile up.
  const written = new Set(result.outputFiles.map((file) => file.path));
  for (const name of readdirSync(outdir))
    if (/^chunk-.*\.js(\.map)?$/.test(name) && !written.has(join(outdir, name))) rmSync(join(outdir, name), { force: true });
  return result.metafile;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const esbuild = await import('esbuild');
  await buildServer(esbuild);
  console.log(`server: built ${Object.keys(COMMANDS).join(', ')} into ${DIST_DIR}`);
}
