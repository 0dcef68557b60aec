import autocannon from 'autocannon';
import { Pool } from 'undici';
import { httpStatusOf } from '@broker/contract';
import { summarize } from './stats';
import type { Measurement } from './targets';
import type { WireRequest } from './http-request';

/** Failures are counted by HTTP status, not by decoding bodies: exact only while every non-"0" code is a non-2xx status. */
export function assertErrorCodesAreHttpErrors() {
  const silent = Object.entries(httpStatusOf).filter(([code, status]) => code !== '0' && status < 400);
  if (silent.length > 0)
    throw new Error(`error codes answered with a 2xx/3xx status would go uncounted: ${silent.map(([code]) => code).join(', ')}`);
}

/** Requests to send: a list taken round-robin, or a function giving the next one (fresh parameters). */
export type RequestSource = readonly WireRequest[] | (() => WireRequest);

function nextOf(source: RequestSource): () => WireRequest {
  if (typeof source === 'function') return source;
  if (source.length === 0) throw new Error('driveHttp: no requests');
  let next = 0;
  return () => source[next++ % source.length]!;
}

/** Latencies and failures of a measured run, as a Measurement. */
function measurementOf(latencies: number[], errors: string[], completed: number, elapsedMs: number): Measurement {
  const counts = new Map<string, number>();
  for (const error of errors) counts.set(error, (counts.get(error) ?? 0) + 1);
  return {
    latency: summarize(latencies),
    requests: completed,
    requestsPerSecond: (completed * 1000) / elapsedMs,
    errors: errors.length,
    errorSamples: [...counts].map(([error, count]) => `${error} ×${count}`).slice(0, 3),
  };
}

/** `concurrency` connections spread over the replicas as an L4 balancer spreads them: evenly, the first taking the remainder. */
export function connectionShares(baseUrls: readonly string[], concurrency: number): Array<[string, number]> {
  if (baseUrls.length === 0) throw new Error('driveHttp: no server to drive');
  return baseUrls
    .map((baseUrl, index): [string, number] => [
      baseUrl,
      Math.floor(concurrency / baseUrls.length) + (index < concurrency % baseUrls.length ? 1 : 0),
    ])
    .filter(([, connections]) => connections > 0);
}

/**
 * A closed loop: `concurrency` keep-alive connections, each sending its next request (taken from `source` then) when the
 * last is answered. Latencies at full precision (autocannon's histogram rounds to ms).
 */
export async function driveHttp(
  target: string | readonly string[],
  source: RequestSource,
  options: { concurrency: number; durationMs: number },
): Promise<Measurement> {
  const nextRequest = nextOf(source);
  const shares = connectionShares(typeof target === 'string' ? [target] : target, options.concurrency);
  // Every replica's connections run at once, for the same time, drawing from the one request stream.
  const runOn = (baseUrl: string, connections: number) =>
    new Promise<{ errors: string[]; completed: number; elapsedMs: number }>((resolve, reject) => {
      const errors: string[] = [];
      let completed = 0;
      const started = performance.now();
      const instance = autocannon(
        {
          url: baseUrl,
          connections,
          duration: options.durationMs / 1000,
          timeout: 30,
          requests: [{ setupRequest: (request) => ({ ...request, ...nextRequest() }) }],
        },
        (error: unknown) => {
          if (error) reject(error instanceof Error ? error : new Error('autocannon failed', { cause: error }));
          else resolve({ errors, completed, elapsedMs: performance.now() - started });
        },
      );
      instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
        completed += 1;
        if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
        else errors.push(`HTTP ${statusCode}`);
      });
      instance.on('reqError', (error: Error) => errors.push(error.message || String(error)));
    });
  const latencies: number[] = [];
  const runs = await Promise.all(shares.map(([baseUrl, connections]) => runOn(baseUrl, connections)));
  const completed = runs.reduce((sum, one) => sum + one.completed, 0);
  return measurementOf(
    latencies,
    runs.flatMap((one) => one.errors),
    completed,
    Math.max(...runs.map((one) => one.elapsedMs)),
  );
}

/** The clock and timer the fixed-rate scheduler runs on: the real ones, or a virtual pair in tests. */
export interface SchedulerClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realClock: SchedulerClock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** When the `index`-th request of a fixed-rate run is due, in ms from the run's start. */
export const intendedSendTime = (index: number, ratePerSecond: number) => (index * 1000) / ratePerSecond;

/**
 * Calls `send(timedFrom)` for request i at `start + i / rate`, never waiting for an answer, so a slow answer holds back
 * no later request; overdue requests go at once. `timedFrom` is the earlier of the intended time and the moment of
 * sending (a timer can wake a millisecond early), so a latency is never shortened.
 */
export async function scheduleFixedRate(
  options: { ratePerSecond: number; durationMs: number },
  send: (timedFrom: number) => Promise<void>,
  clock: SchedulerClock = realClock,
): Promise<{ sent: number; startedAt: number }> {
  if (!(options.ratePerSecond > 0)) throw new RangeError(`scheduleFixedRate: rate must be positive, got ${options.ratePerSecond}`);
  const count = Math.floor((options.durationMs * options.ratePerSecond) / 1000);
  const startedAt = clock.now();
  const pending: Array<Promise<void>> = [];
  for (let index = 0; index < count; index++) {
    const intendedAt = startedAt + intendedSendTime(index, options.ratePerSecond);
    const wait = intendedAt - clock.now();
    if (wait > 0) await clock.sleep(wait);
    pending.push(send(Math.min(intendedAt, clock.now())));
  }
  await Promise.all(pending);
  return { sent: count, startedAt };
}

/** One request on the pool, resolving with the status once the body (dropped unread) has arrived: no stream per request. */
function dispatchOnce(pool: Pool, wire: WireRequest): Promise<number> {
  return new Promise((resolve, reject) => {
    let status = 0;
    pool.dispatch(
      { method: wire.method, path: wire.path, headers: wire.headers, body: wire.body ?? null },
      {
        onRequestStart: () => undefined,
        onResponseStart: (_controller, statusCode) => {
          status = statusCode;
        },
        onResponseData: () => undefined,
        onResponseEnd: () => resolve(status),
        onResponseError: (_controller, error) => reject(error),
      },
    );
  });
}

/** Connections of the fixed-rate driver: see ADR 0034. */
export const FIXED_RATE_CONNECTIONS = 32;

/**
 * Fixed arrival rate over at most `maxConnections` keep-alive connections, no pipelining, each latency from the intended
 * send time: a wait in the pool's queue or the server's counts, as a client arriving on schedule would see it.
 */
export async function driveFixedRate(
  target: string | readonly string[],
  source: RequestSource,
  options: { ratePerSecond: number; durationMs: number; maxConnections?: number },
): Promise<Measurement> {
  const nextRequest = nextOf(source);
  const baseUrls = typeof target === 'string' ? [target] : target;
  // A pool per replica, requests round-robin, connections shared out as the closed loop's.
  const pools = connectionShares(baseUrls, options.maxConnections ?? FIXED_RATE_CONNECTIONS).map(
    ([baseUrl, connections]) =>
      new Pool(baseUrl, {
        connections,
        pipelining: 1,
        // Counted once a request is on a connection: a slow answer fails, a queued one does not.
        headersTimeout: 30_000,
        bodyTimeout: 30_000,
      }),
  );
  let turn = 0;
  const nextPool = () => pools[turn++ % pools.length]!;
  const latencies: number[] = [];
  const errors: string[] = [];
  let completed = 0;
  try {
    const { startedAt } = await scheduleFixedRate(options, async (timedFrom) => {
      try {
        const status = await dispatchOnce(nextPool(), nextRequest());
        if (status >= 200 && status < 300) latencies.push(performance.now() - timedFrom);
        else errors.push(`HTTP ${status}`);
      } catch (error) {
        errors.push(error instanceof Error ? error.message : String(error));
      }
      completed += 1;
    });
    return measurementOf(latencies, errors, completed, Math.max(performance.now() - startedAt, options.durationMs));
  } finally {
    await Promise.all(pools.map((pool) => pool.destroy()));
  }
}
