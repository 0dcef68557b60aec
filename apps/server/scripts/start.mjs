// `npm start`: runs the compiled server (apps/server/dist/start.js), never TypeScript through a loader.
// With the dev dependencies installed (a checkout) the bundle is compiled again first — esbuild takes about
// a second — so it always matches the sources; without them (`npm ci --omit=dev` after `npm run build`)
// the bundle already built is run as it is (ADR 0031).
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { buildServer, SERVER_BUNDLE } from './build-server.mjs';

let esbuild = null;
try {
  esbuild = await import('esbuild');
} catch {
  // Production install: no build tools, run what `npm run build` left.
}
if (esbuild) {
  await buildServer(esbuild);
} else if (!existsSync(SERVER_BUNDLE)) {
  console.error(
    `The server is not built (${SERVER_BUNDLE} is missing) and the build tools are not installed.\n` +
      'Run `npm install && npm run build` first; `npm ci --omit=dev` may follow it.',
  );
  process.exit(2);
}
// Stack traces name the TypeScript lines (the bundle carries a source map).
process.setSourceMapsEnabled(true);
const { start } = await import(pathToFileURL(SERVER_BUNDLE).href);
await start();
