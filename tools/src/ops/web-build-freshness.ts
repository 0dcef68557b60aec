import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';

/** What the web build is made of (tests and build output aside): the web app, the packages it imports, versions and settings. */
export const WEB_SOURCE_FOLDERS = ['apps/web', 'packages/contract', 'packages/domain'] as const;
export const WEB_SOURCE_FILES = ['package-lock.json', 'tsconfig.base.json'] as const;
const NOT_SOURCES = new Set(['node_modules', 'dist', 'coverage']);
const TEST_FILE = /\.test\.tsx?$/;

/** Where `npm start` notes the digest of the sources it built from; `vite build` empties dist, so a manual build clears it. */
export const digestFile = (distDir: string) => join(distDir, '.vite', 'sources-sha256');

function sourceFiles(root: string, folder: string, found: string[] = []): string[] {
  const dir = join(root, folder);
  if (!existsSync(dir)) return found;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (NOT_SOURCES.has(entry.name)) continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) sourceFiles(root, path, found);
    else if (entry.isFile() && !TEST_FILE.test(entry.name)) found.push(path);
  }
  return found;
}

/** SHA-256 of the sources' paths and contents (a checkout touches times only) and the VITE_* settings (of `env`) baked into the bundle. */
export function webSourcesDigest(root: string, env: Record<string, string | undefined> = {}): string {
  const hash = createHash('sha256');
  const files = [
    ...WEB_SOURCE_FOLDERS.flatMap((folder) => sourceFiles(root, folder)),
    ...WEB_SOURCE_FILES.filter((file) => existsSync(join(root, file))),
  ];
  for (const file of files.map((path) => path.split(sep).join('/')).sort()) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(root, file)));
    hash.update('\0');
  }
  for (const [key, value] of Object.entries(env).sort(([a], [b]) => a.localeCompare(b))) {
    if (key.startsWith('VITE_') && value !== undefined) hash.update(`${key}=${value}\0`);
  }
  return hash.digest('hex');
}

export type WebBuildState = { fresh: true } | { fresh: false; reason: string };

/** Whether `distDir` holds a build of exactly these sources. */
export function webBuildState(distDir: string, digest: string): WebBuildState {
  if (!existsSync(join(distDir, 'index.html'))) return { fresh: false, reason: `no build in ${distDir}` };
  const marker = digestFile(distDir);
  if (!existsSync(marker)) return { fresh: false, reason: 'the build was not made by npm start (no record of its sources)' };
  if (readFileSync(marker, 'utf8').trim() !== digest) return { fresh: false, reason: 'its sources changed since it was built' };
  return { fresh: true };
}

export function recordWebBuild(distDir: string, digest: string) {
  const marker = digestFile(distDir);
  mkdirSync(dirname(marker), { recursive: true });
  writeFileSync(marker, `${digest}\n`);
}
