import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../main.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` once the server listens. */
  baseUrl: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Its JSON log lines, parsed. */
  logLines(): Array<Record<string, unknown> & { msg: string }>;
  /** Resident set size in bytes, read from /proc (Linux). */
  rssBytes(): number;
  /** SIGTERM and wait (graceful drain), or SIGKILL for crash tests. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface ServerProcessOptions {
  /** Environment for `main.ts` on top of a quiet default: no demo seed, no static web, port 0. */
  env: Record<string, string | undefined>;
  /** Give up waiting for "is up on" after this many ms. */
  startTimeoutMs?: number;
}

/**
 * Starts the real server entry (`main.ts`) in its own process, as an operator would, and resolves
 * once it listens. For tests and tools that need real process boundaries: replicas, kill -9, soak.
 */
export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  // `node --import tsx`, not the tsx CLI: the CLI forks a second process, so SIGKILL and RSS would hit the wrapper.
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      LOG_LEVEL: 'info',
      SEED_DEMO: 'false',
      WEB_DIST_DIR: '',
      MOT_SWEEP_INTERVAL_MS: '0',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));

  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server did not start within ${options.startTimeoutMs ?? 60_000} ms:\n${output}`)),
      options.startTimeoutMs ?? 60_000,
    );
    const check = () => {
      const match = /is up on (http:\/\/[\d.]+:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        child.stdout!.off('data', check);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${output}`));
    });
  });

  return {
    child,
    baseUrl,
    output: () => output,
    logLines: () =>
      output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown> & { msg: string }),
    rssBytes() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
      return kb ? Number(kb) * 1024 : 0;
    },
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill(signal);
      await exited;
    },
  };
}
