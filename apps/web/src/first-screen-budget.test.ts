import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  ENTRY,
  FIRST_SCREENS,
  HTML_PRELOADS,
  RESPONSE_CHECKER,
  firstScreenChunks,
  staticClosure,
  type FirstScreen,
  type Manifest,
} from './build/first-screen-chunks';

/**
 * The first screen's JavaScript budget (issue 8; issue 21: 145 kB): at most 145 kB gzip (145,000 bytes, kB as
 * Vite prints it) for what a phone must download and run before it shows
 *   - the client list (`/` → /client/manage/list, signed in) with its first rows, and
 *   - the sign-in return page (/wxEntry), the first screen of a visit without a token.
 *
 * What counts is `src/build/first-screen-chunks.ts`: start-up (the entry and its modulepreloads, which include the
 * home's chunks for every visit), the route's
 * chunk and its static imports, and what the page awaits on demand before its content shows (the response
 * checker, loaded beside the first call). The client-management browser test holds the list to it: no script
 * fetched before the first rows is left uncounted. Chunks shared by both parts are counted once. Each chunk is
 * gzipped at zlib's default level, as a server compresses on the fly. Not counted: chunks loaded only on demand
 * later (other pages, Toast on a failure, Sentry without a DSN, the WeCom JS-SDK which loads inside WeCom once the
 * page has settled), CSS (reported beside the figure), and the HTML itself.
 *
 * Run from the repository root (as vitest is). E2E_WEB_DIST names another build directory, as for the
 * browser tests.
 */
const BUDGET_BYTES = 145_000;
const DIST = resolve(process.env.E2E_WEB_DIST ?? 'apps/web/dist');

let manifest: Manifest;
let html: string;

beforeAll(() => {
  const manifestPath = join(DIST, '.vite/manifest.json');
  if (!existsSync(manifestPath)) {
    throw new Error(
      `${manifestPath} not found: the first-screen budget reads the production build. Run \`npm run build\` first ` +
        '(or set E2E_WEB_DIST to a directory built with `npm run build -w @broker/web -- --outDir <dir>`).',
    );
  }
  manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  html = readFileSync(join(DIST, 'index.html'), 'utf8');
});

const entryKey = () => {
  const keys = Object.keys(manifest).filter((key) => manifest[key]!.isEntry);
  expect(keys, 'one entry (index.html)').toEqual([ENTRY]);
  return keys[0]!;
};

const gzipBytes = (file: string) => gzipSync(readFileSync(join(DIST, file))).length;
const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

function measure(screen: FirstScreen) {
  const chunks = firstScreenChunks(manifest, screen);
  const rows = chunks.map(({ file, part }) => ({ file, part, gzip: gzipBytes(file) }));
  rows.sort((a, b) => b.gzip - a.gzip);
  const css = chunks.flatMap(({ key }) => manifest[key]!.css ?? []);
  return {
    rows,
    total: rows.reduce((sum, row) => sum + row.gzip, 0),
    cssGzip: [...new Set(css)].reduce((sum, file) => sum + gzipBytes(file), 0),
  };
}

describe('first-screen JavaScript budget', () => {
  test("index.html preloads exactly the entry's static imports and the home's chunks (what the budget counts as start-up)", () => {
    const scripts = [...html.matchAll(/<script type="module"[^>]* src="\/([^"]+)"/g)].map((match) => match[1]);
    const preloads = [...html.matchAll(/<link rel="modulepreload"[^>]* href="\/([^"]+)"/g)].map((match) => match[1]);
    const stylesheets = [...html.matchAll(/<link rel="stylesheet"[^>]* href="\/([^"]+)"/g)].map((match) => match[1]);
    const entry = entryKey();
    expect(scripts).toEqual([manifest[entry]!.file]);
    const startUp = new Set([entry, ...HTML_PRELOADS].flatMap((key) => [...staticClosure(manifest, key)]));
    const expected = [...startUp].filter((key) => key !== entry).map((key) => manifest[key]!.file);
    expect(new Set(preloads)).toEqual(new Set(expected));
    expect(preloads).toContain(manifest[FIRST_SCREENS[0].route]!.file);
    expect(preloads).toContain(manifest[RESPONSE_CHECKER]!.file);
    // And their CSS, which Vite's loader would otherwise link (and await) only when the page is imported.
    expect(new Set(stylesheets)).toEqual(new Set([...startUp].flatMap((key) => manifest[key]!.css ?? [])));
  });

  test('the response checker counted for the client list is the chunk request() loads on demand', () => {
    // Renamed or moved, the checker would drop out of the count silently: hold it to the request layer's chunk.
    const requestChunk = Object.values(manifest).find((chunk) => chunk.dynamicImports?.includes(RESPONSE_CHECKER));
    expect(requestChunk, `a start-up chunk imports ${RESPONSE_CHECKER} on demand`).toBeDefined();
    expect(staticClosure(manifest, entryKey()).has(Object.keys(manifest).find((key) => manifest[key] === requestChunk)!)).toBe(true);
    expect(manifest[RESPONSE_CHECKER]?.isDynamicEntry).toBe(true);
  });

  test.each(FIRST_SCREENS)('$name: JavaScript ≤ 145 kB gzip', (screen) => {
    const { name, route } = screen;
    expect(manifest[route]?.isDynamicEntry, `${route} is a lazy route chunk`).toBe(true);
    const { rows, total, cssGzip } = measure(screen);
    console.log(
      [
        `first screen, ${name}: ${kB(total)} gzip JavaScript in ${rows.length} chunks (budget ${kB(BUDGET_BYTES)}); CSS ${kB(cssGzip)} gzip`,
        ...rows.map((row) => `  ${kB(row.gzip).padStart(9)}  ${row.part.padEnd(9)}  ${row.file}`),
      ].join('\n'),
    );
    expect(total, `${name}: ${kB(total)} gzip of JavaScript, over the ${kB(BUDGET_BYTES)} budget`).toBeLessThanOrEqual(BUDGET_BYTES);
  });
});
