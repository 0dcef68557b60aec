import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, test } from 'vitest';

/**
 * The first screen's JavaScript budget (issue 8): at most 150 kB gzip (150,000 bytes, kB as Vite
 * prints it) for what a phone must download and run before it shows
 *   - the client list (`/` → /client/manage/list, signed in), and
 *   - the sign-in return page (/wxEntry), the first screen of a visit without a token.
 *
 * What counts, from the production build (`npm run build`; the root test script builds before vitest):
 *   1. the entry chunk that index.html loads, plus every chunk it imports statically, transitively
 *      (exactly the `<link rel="modulepreload">` list; a test below holds the two together);
 *   2. the route's own lazy chunk (the page is on screen, so its chunk is first-screen JavaScript),
 *      plus every chunk that one imports statically, transitively.
 * Chunks shared by both are counted once. Each chunk is gzipped at zlib's default level, as a server
 * compresses on the fly. Not counted: chunks loaded only on demand (other pages, Toast on a failure,
 * Sentry without a DSN, the WeCom JS-SDK which loads inside WeCom once the page has settled), CSS
 * (reported beside the figure), and the HTML itself.
 *
 * Run from the repository root (as vitest is). E2E_WEB_DIST names another build directory, as for the
 * browser tests.
 */
const BUDGET_BYTES = 150_000;
const DIST = resolve(process.env.E2E_WEB_DIST ?? 'apps/web/dist');
const FIRST_SCREENS = [
  { name: 'client list (/)', route: 'src/features/manage/client-manage-list-page.tsx' },
  { name: 'sign-in (/wxEntry)', route: 'src/features/auth/wx-entry-page.tsx' },
] as const;

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

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

/** The manifest keys of a chunk and of every chunk it imports statically, transitively. */
function staticClosure(key: string, into = new Set<string>()): Set<string> {
  if (into.has(key)) return into;
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the build manifest`);
  into.add(key);
  for (const imported of chunk.imports ?? []) staticClosure(imported, into);
  return into;
}

const entryKey = () => {
  const keys = Object.keys(manifest).filter((key) => manifest[key]!.isEntry);
  expect(keys, 'one entry (index.html)').toEqual(['index.html']);
  return keys[0]!;
};

const gzipBytes = (file: string) => gzipSync(readFileSync(join(DIST, file))).length;
const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

function measure(route: string) {
  const entry = staticClosure(entryKey());
  const routeChunks = staticClosure(route);
  const keys = new Set([...entry, ...routeChunks]);
  const rows = [...keys].map((key) => ({
    file: manifest[key]!.file,
    part: entry.has(key) ? 'start-up' : 'route',
    gzip: gzipBytes(manifest[key]!.file),
  }));
  rows.sort((a, b) => b.gzip - a.gzip);
  const css = [...keys].flatMap((key) => manifest[key]!.css ?? []);
  return {
    rows,
    total: rows.reduce((sum, row) => sum + row.gzip, 0),
    cssGzip: [...new Set(css)].reduce((sum, file) => sum + gzipBytes(file), 0),
  };
}

describe('first-screen JavaScript budget', () => {
  test("index.html preloads exactly the entry's static imports (what the budget counts as start-up)", () => {
    const scripts = [...html.matchAll(/<script type="module"[^>]* src="\/([^"]+)"/g)].map((match) => match[1]);
    const preloads = [...html.matchAll(/<link rel="modulepreload"[^>]* href="\/([^"]+)"/g)].map((match) => match[1]);
    const entry = entryKey();
    expect(scripts).toEqual([manifest[entry]!.file]);
    const expected = [...staticClosure(entry)].filter((key) => key !== entry).map((key) => manifest[key]!.file);
    expect(new Set(preloads)).toEqual(new Set(expected));
  });

  test.each(FIRST_SCREENS)('$name: JavaScript ≤ 150 kB gzip', ({ name, route }) => {
    expect(manifest[route]?.isDynamicEntry, `${route} is a lazy route chunk`).toBe(true);
    const { rows, total, cssGzip } = measure(route);
    console.log(
      [
        `first screen, ${name}: ${kB(total)} gzip JavaScript in ${rows.length} chunks (budget ${kB(BUDGET_BYTES)}); CSS ${kB(cssGzip)} gzip`,
        ...rows.map((row) => `  ${kB(row.gzip).padStart(9)}  ${row.part.padEnd(8)}  ${row.file}`),
      ].join('\n'),
    );
    expect(total, `${name}: ${kB(total)} gzip of JavaScript, over the ${kB(BUDGET_BYTES)} budget`).toBeLessThanOrEqual(BUDGET_BYTES);
  });
});
