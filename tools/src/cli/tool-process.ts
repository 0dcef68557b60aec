import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root: where the README's commands are typed. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const TIMEOUT_MS = 90_000;

/**
 * Test helper: `npm run <script> -- <args>` typed at the repository root, as a user would, with a clean
 * environment plus `env` (never this process's DATABASE_URL or PGLITE_DIR); answers its exit code and its
 * stdout and stderr, interleaved as they came.
 */
export function runNpmScript(script: string, args: string[], options: { env: Record<string, string> }) {
  const child = spawn('npm', ['run', script, '--', ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`npm run ${script} did not finish within ${TIMEOUT_MS} ms:\n${output}`));
    }, TIMEOUT_MS);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}
