import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Tuning } from '../tuning';
import { TEST_HEALTH_DETAIL_TOKEN } from './health-detail';

/** The server's entry, whose runServer a child process calls with the test's tuning. */
const MAIN = new URL('../main.ts', import.meta.url).href;
const MEMORY_PROBE = fileURLToPath(new URL('./memory-probe.ts', import.meta.url));
const EMULATOR_MAIN = fileURLToPath(new URL('../../../wecom-emulator/src/main.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** Output kept per process: a soak at LOG_LEVEL=info writes hundreds of MB; the tail is what a failure needs. */
const OUTPUT_KEEP_CHARS = 4 * 1024 * 1024;

export interface MemorySample {
  at: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
}

export interface ServerProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` once the server listens. */
  baseUrl: string;
  /** What the process wrote to stdout and stderr (the last few MB of it). */
  output(): string;
  /** Its JSON log lines, parsed (of the output kept). */
  logLines(): Array<Record<string, unknown> & { msg: string }>;
  /** Resident set size in bytes, read from /proc (Linux); 0 once the process is gone. */
  rssBytes(): number;
  /** CPU time (user + system) the process has used, in seconds, from /proc (Linux). */
  cpuSeconds(): number;
  /** The memory probe's samples so far (empty unless started with `memoryProbeMs`). */
  memorySamples(): MemorySample[];
  /** Resolves when the process has exited, however it ended. */
  exited: Promise<void>;
  /** SIGTERM and wait (graceful drain), or SIGKILL for crash tests. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface ServerProcessOptions {
  /** Environment for `main.ts` on top of a quiet default: no demo seed, no static web, port 0. */
  env: Record<string, string | undefined>;
  /** Values no deployer turns, for this process (tuning.ts), on top of: no MOT schedule, no WeCom probe. */
  tuning?: Partial<Tuning>;
  /** Give up waiting for "is up on" after this many ms. */
  startTimeoutMs?: number;
  /** Log `process.memoryUsage()` (after a forced GC) every this many ms; see memory-probe.ts. */
  memoryProbeMs?: number;
  /** Hears the child as soon as it is spawned, before it listens: a caller's cleanup can reach one still starting. */
  onSpawn?: (child: ChildProcess) => void;
}

interface ChildOutput {
  text(): string;
  memorySamples: MemorySample[];
}

/** Collects a child's stdout and stderr, keeping the tail and pulling out memory-probe lines. */
function collectOutput(child: ChildProcess): ChildOutput {
  let text = '';
  let partial = '';
  const memorySamples: MemorySample[] = [];
  const take = (chunk: Buffer) => {
    const data = chunk.toString();
    text += data;
    if (text.length > 2 * OUTPUT_KEEP_CHARS) text = text.slice(-OUTPUT_KEEP_CHARS);
    partial += data;
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('{"memoryProbe"')) continue;
      memorySamples.push((JSON.parse(line) as { memoryProbe: MemorySample }).memoryProbe);
    }
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  return { text: () => text, memorySamples };
}

function parseLogLines(output: string) {
  return output.split('\n').flatMap((line) => {
    if (!line.startsWith('{')) return [];
    try {
      const parsed = JSON.parse(line) as Record<string, unknown> & { msg: string };
      return typeof parsed.msg === 'string' ? [parsed] : [];
    } catch {
      // The first kept line can be cut in half by the tail trim.
      return [];
    }
  });
}

/** Resolves with the first capture of `pattern` in the output, or rejects on exit or timeout. */
function waitForOutput(child: ChildProcess, output: ChildOutput, pattern: RegExp, what: string, timeoutMs: number) {
  return new Promise<string>((resolve, reject) => {
    const done = (settle: () => void) => {
      clearTimeout(timer);
      child.stdout!.off('data', check);
      child.stderr!.off('data', check);
      child.off('exit', exited);
      settle();
    };
    const timer = setTimeout(
      () => done(() => reject(new Error(`${what} did not start within ${timeoutMs} ms:\n${output.text()}`))),
      timeoutMs,
    );
    const check = () => {
      const match = pattern.exec(output.text());
      if (match) done(() => resolve(match[1]!));
    };
    const exited = (code: number | null, signal: string | null) =>
      done(() => reject(new Error(`${what} exited (${signal ?? code}) before listening:\n${output.text()}`)));
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.once('exit', exited);
  });
}

function stopper(child: ChildProcess, exited: Promise<void>) {
  return async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
}

/**
 * Starts the real server entry (`main.ts`) in its own process, as an operator would, and resolves
 * once it listens. For tests and tools that need real process boundaries: replicas, kill -9, soak.
 */
export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const probe = options.memoryProbeMs ? ['--expose-gc', '--import', MEMORY_PROBE] : [];
  // `node --import tsx`, not the tsx CLI: the CLI forks a second process, so SIGKILL and RSS would hit the wrapper.
  // BENCH_CPU_PROF=<dir>: the server writes a V8 CPU profile there when it exits (`npm run bench`, docs/benchmarks.md).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  // BENCH_NODE_FLAGS="<flags>": more Node flags for the server, e.g. `--import <file>` to record GC pauses while measuring.
  const extraFlags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  // Drills count WeCom calls (one shared gettoken); the probe has its own tests. The sweep runs when a drill says.
  const tuning: Partial<Tuning> = { motSweepIntervalMs: 0, wecomProbeIntervalMs: 0, ...options.tuning };
  const entry = `const { runServer } = await import(${JSON.stringify(MAIN)}); await runServer(${JSON.stringify(tuning)});`;
  const child = spawn(process.execPath, [...profile, ...extraFlags, '--import', 'tsx', ...probe, '--input-type=module', '-e', entry], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      LOG_LEVEL: 'info',
      SEED_DEMO: 'false',
      WEB_DIST_DIR: '',
      // Load and replica drills sign in and search far more than a person; the limits have their own tests.
      LOGIN_RATE_LIMIT: '100000',
      KYC_SEARCH_RATE_LIMIT: '100000',
      PHONE_REVEAL_RATE_LIMIT: '100000',
      // What monitoring presents to read /readyz's details (healthDetailHeaders).
      HEALTH_DETAIL_TOKEN: TEST_HEALTH_DETAIL_TOKEN,
      ...(options.memoryProbeMs ? { BROKER_MEMORY_PROBE_MS: String(options.memoryProbeMs) } : {}),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  options.onSpawn?.(child);
  const exited = once(child, 'exit').then(() => undefined);
  const output = collectOutput(child);
  let baseUrl: string;
  try {
    baseUrl = await waitForOutput(child, output, /is up on (http:\/\/[\d.]+:\d+)/, 'server', options.startTimeoutMs ?? 60_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }

  return {
    child,
    baseUrl,
    output: output.text,
    logLines: () => parseLogLines(output.text()),
    rssBytes() {
      try {
        const kb = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
        return kb ? Number(kb) * 1024 : 0;
      } catch {
        return 0;
      }
    },
    cpuSeconds() {
      try {
        // Fields after the parenthesised command name; utime and stime are the 12th and 13th, in clock ticks (100/s).
        const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        return (Number(fields[11]) + Number(fields[12])) / 100;
      } catch {
        return 0;
      }
    },
    memorySamples: () => [...output.memorySamples],
    exited,
    stop: stopper(child, exited),
  };
}

export interface EmulatorProcess {
  child: ChildProcess;
  /** Base of its WeCom API and OAuth page, e.g. `http://127.0.0.1:41234/wecom`. */
  wecomBaseUrl: string;
  stop(): Promise<void>;
}

/**
 * The standalone WeCom emulator (`apps/wecom-emulator`) in its own process: the one WeCom that
 * several server replicas share, as they would share the real one.
 */
export async function startEmulatorProcess(): Promise<EmulatorProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', EMULATOR_MAIN], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, WECOM_EMULATOR_PORT: '0', WECOM_EMULATOR_HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = once(child, 'exit').then(() => undefined);
  const output = collectOutput(child);
  let origin: string;
  try {
    origin = await waitForOutput(child, output, /listening at (http:\/\/127\.0\.0\.1:\d+)/, 'WeCom emulator', 30_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return { child, wecomBaseUrl: `${origin}/wecom`, stop: () => stopper(child, exited)('SIGTERM') };
}
