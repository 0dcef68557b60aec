// `node run.mjs <command> [arguments]` runs that command compiled (apps/server/dist/<command>.js). With the dev
// dependencies installed the bundles are compiled again first, so they match the sources (ADR 0031).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildServer, COMMANDS, DIST_DIR } from './build-server.mjs';

const [command] = process.argv.splice(2, 1);
if (!Object.hasOwn(COMMANDS, command ?? '')) {
  console.error(`usage: node apps/server/scripts/run.mjs <${Object.keys(COMMANDS).join(' | ')}> [arguments]`);
  process.exit(2);
}
const bundle = join(DIST_DIR, `${command}.js`);
let esbuild = null;
try {
  esbuild = await import('esbuild');
} catch {
  // Production install: no build tools, run what `npm run build` left.
}
if (esbuild) {
  await buildServer(esbuild);
} else if (!existsSync(bundle)) {
  console.error(
    `${command} is not built (${bundle} is missing) and the build tools are not installed.\n` +
      'Run `npm install && npm run build` first; `npm ci --omit=dev` may follow it.',
  );
  process.exit(2);
}
// Stack traces name the TypeScript lines.
process.setSourceMapsEnabled(true);
const program = await import(pathToFileURL(bundle).href);
if (command === 'start') await program.start();
