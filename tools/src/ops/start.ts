import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadEnv, SERVER_ROOT, type Tuning } from '@broker/server';
import { recordWebBuild, webBuildState, webSourcesDigest } from './web-build-freshness';

/** The checkout: found through the server, so it is the same from these sources and from the compiled bundle. */
const ROOT = join(SERVER_ROOT, '..', '..');

/**
 * `npm start` before the server runs: settings first (before minutes of build), then the web app is built only when its
 * sources changed since the current build; without the build tools (`npm ci --omit=dev`) that build is served as it is.
 */
export function prepareStart(options: {
  root: string;
  source: NodeJS.ProcessEnv;
  build: () => void;
  log: (line: string) => void;
  /** Whether the build tools are installed; default: they are. */
  canBuild?: boolean;
}) {
  const env = loadEnv(options.source);
  if (env.WEB_DIST_DIR !== undefined) return { env, built: false, reason: `WEB_DIST_DIR is set: serving ${env.WEB_DIST_DIR} as it is` };
  const distDir = join(options.root, 'apps', 'web', 'dist');
  const digest = webSourcesDigest(options.root, options.source);
  const state = webBuildState(distDir, digest);
  if (state.fresh) {
    options.log('web app: up to date, not rebuilt');
    return { env, built: false, reason: 'up to date' };
  }
  if (options.canBuild === false) {
    if (!existsSync(join(distDir, 'index.html')))
      throw new Error(
        `web app: no build in ${distDir}, and the build tools are not installed: run \`npm run build\` before \`npm ci --omit=dev\``,
      );
    options.log('web app: serving the build made by npm run build (the build tools are not installed)');
    return { env, built: false, reason: 'served as built: no build tools' };
  }
  options.log(`web app: building (${state.reason})`);
  options.build();
  recordWebBuild(distDir, digest);
  return { env, built: true, reason: state.reason };
}

function buildWebApp() {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['run', 'build', '-w', '@broker/web'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`the web app did not build (npm run build exited ${result.status ?? result.signal})`);
}

/**
 * Run by `npm start` (apps/server/scripts/run.mjs) from the compiled bundle, or directly from these sources;
 * `tuning`: what a test changes of the values no deployer turns (ADR 0059).
 */
export async function start(tuning: Partial<Tuning> = {}) {
  try {
    prepareStart({
      root: ROOT,
      source: process.env,
      build: buildWebApp,
      log: (line) => console.log(line),
      canBuild: existsSync(join(ROOT, 'node_modules', 'vite')),
    });
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(error instanceof ConfigError ? 1 : 2);
  }
  // The server's own entry: it reads the same settings again, opens the database and listens.
  const { runServer } = await import('@broker/server/main');
  await runServer(tuning);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) void start();
