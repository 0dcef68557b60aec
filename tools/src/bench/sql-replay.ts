import { preparedStatementName, type DatabaseHandle } from '@broker/server';
import { summarize } from './stats';
import type { Measurement } from './targets';

export interface CapturedStatement {
  text: string;
  params: unknown[];
  /** The server ran it as a prepared statement (a reused plan); the replay does the same. */
  prepared: boolean;
  /** Statements issued in one event-loop turn share a wave: the endpoint ran them in parallel, and so does the replay. */
  wave: number;
}

/** Everything one API request ran, grouped into waves in the order they ran. */
export type CapturedRequest = CapturedStatement[][];

/** Attributes the statements a handle reports (`openDatabase({ onQuery })`) to the call inside `record`; calls must not overlap. */
export function createStatementRecorder() {
  let current: CapturedStatement[] | null = null;
  let wave = 0;
  let turnOpen = false;
  const observe = (text: string, params: readonly unknown[], prepared?: boolean) => {
    if (!current) return;
    if (!turnOpen) {
      // Everything observed before this fires was issued without waiting for a result.
      turnOpen = true;
      setImmediate(() => {
        wave += 1;
        turnOpen = false;
      });
    }
    current.push({ text, params: [...params], prepared: prepared === true, wave });
  };
  return {
    observe,
    async record<T>(call: () => Promise<T>): Promise<{ result: T; request: CapturedRequest }> {
      if (current) throw new Error('statement recorder: calls must not overlap');
      current = [];
      try {
        const result = await call();
        return { result, request: groupWaves(current) };
      } finally {
        current = null;
      }
    },
  };
}

export function groupWaves(statements: readonly CapturedStatement[]): CapturedRequest {
  const waves: CapturedRequest = [];
  let last: number | null = null;
  for (const statement of statements) {
    if (statement.wave !== last) waves.push([]);
    waves[waves.length - 1]!.push(statement);
    last = statement.wave;
  }
  return waves;
}

/** Runs raw statements the way the server's driver does: the pg pool, or the one PGlite connection. */
export interface SqlRunner {
  query(statement: CapturedStatement): Promise<unknown>;
  /** For requests with BEGIN…COMMIT: every statement on one connection. */
  onOneConnection(statements: CapturedStatement[]): Promise<void>;
}

export function sqlRunnerFor(handle: DatabaseHandle): SqlRunner {
  if (handle.pool) {
    const pool = handle.pool;
    // As the server runs them: prepared statements on the connections that keep their generic plan.
    const preparedPool = handle.preparedPool ?? pool;
    return {
      query: ({ text, params, prepared }) =>
        prepared ? preparedPool.query({ name: preparedStatementName(text), text, values: params }) : pool.query(text, params),
      async onOneConnection(statements) {
        const client = await pool.connect();
        try {
          for (const statement of statements) await client.query(statement.text, statement.params);
        } finally {
          client.release();
        }
      },
    };
  }
  const pglite = handle.pglite;
  if (!pglite) throw new Error('sqlRunnerFor: the handle has neither a pool nor PGlite');
  return {
    // The server's PGlite runs prepared statements as ordinary ones too.
    query: ({ text, params }) => pglite.query(text, params),
    async onOneConnection(statements) {
      for (const statement of statements) await pglite.query(statement.text, statement.params);
    },
  };
}

export const TRANSACTION_CONTROL = /^\s*(begin|start\s+transaction|commit|rollback|savepoint)\b/i;

async function replayOne(runner: SqlRunner, request: CapturedRequest) {
  if (request.some((wave) => wave.some((statement) => TRANSACTION_CONTROL.test(statement.text)))) {
    await runner.onOneConnection(request.flat());
    return;
  }
  for (const wave of request) {
    if (wave.length === 1) await runner.query(wave[0]!);
    else await Promise.all(wave.map((statement) => runner.query(statement)));
  }
}

/** `concurrency` closed-loop workers replay the captured requests round-robin, wave by wave, after an unmeasured warm-up. */
export async function replaySql(
  runner: SqlRunner,
  requests: readonly CapturedRequest[],
  options: { concurrency: number; durationMs: number; warmupMs: number },
): Promise<Measurement> {
  if (requests.length === 0) throw new Error('replaySql: nothing captured');
  let next = 0;
  const run = async (durationMs: number, latencies: number[] | null) => {
    const errors: string[] = [];
    const deadline = performance.now() + durationMs;
    const worker = async () => {
      while (performance.now() < deadline) {
        const request = requests[next++ % requests.length]!;
        const started = performance.now();
        try {
          await replayOne(runner, request);
          latencies?.push(performance.now() - started);
        } catch (error) {
          errors.push(error instanceof Error ? error.message : String(error));
        }
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    return { errors, elapsedMs: performance.now() - started };
  };
  if (options.warmupMs > 0) await run(options.warmupMs, null);
  const latencies: number[] = [];
  const { errors, elapsedMs } = await run(options.durationMs, latencies);
  return {
    latency: summarize(latencies),
    requests: latencies.length + errors.length,
    requestsPerSecond: ((latencies.length + errors.length) * 1000) / elapsedMs,
    errors: errors.length,
    errorSamples: [...new Set(errors)].slice(0, 3),
  };
}
