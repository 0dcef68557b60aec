import autocannon from 'autocannon';
import { httpStatusOf } from '@broker/contract';
import { summarize } from './stats';
import type { Measurement } from './targets';
import type { WireRequest } from './http-request';

/**
 * During load the bench counts failures by HTTP status rather than decoding every (gzipped)
 * body: that is exact only while every non-"0" code answers a non-2xx status, so check it.
 */
export function assertErrorCodesAreHttpErrors() {
  const silent = Object.entries(httpStatusOf).filter(([code, status]) => code !== '0' && status < 400);
  if (silent.length > 0)
    throw new Error(`error codes answered with a 2xx/3xx status would go uncounted: ${silent.map(([code]) => code).join(', ')}`);
}

/**
 * `concurrency` keep-alive connections send the requests round-robin (each a different customer
 * or keyword) for `durationMs`, after an unmeasured warm-up. Latencies of 2xx answers are kept
 * at full precision (autocannon's own histogram rounds to whole milliseconds).
 */
export async function driveHttp(
  baseUrl: string,
  requests: readonly WireRequest[],
  options: { concurrency: number; durationMs: number; warmupMs: number },
): Promise<Measurement> {
  if (requests.length === 0) throw new Error('driveHttp: no requests');
  let next = 0;
  const run = (durationMs: number, latencies: number[] | null) =>
    new Promise<{ errors: string[]; completed: number; elapsedMs: number }>((resolve, reject) => {
      const errors: string[] = [];
      let completed = 0;
      const started = performance.now();
      const instance = autocannon(
        {
          url: baseUrl,
          connections: options.concurrency,
          duration: durationMs / 1000,
          timeout: 30,
          requests: [
            {
              setupRequest: (request) => {
                const wire = requests[next++ % requests.length]!;
                return {
                  ...request,
                  method: wire.method,
                  path: wire.path,
                  headers: wire.headers,
                  ...(wire.body !== undefined ? { body: wire.body } : { body: undefined }),
                };
              },
            },
          ],
        },
        (error) => {
          if (error) reject(error);
          else resolve({ errors, completed, elapsedMs: performance.now() - started });
        },
      );
      instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
        completed += 1;
        if (statusCode >= 200 && statusCode < 300) latencies?.push(responseTime);
        else errors.push(`HTTP ${statusCode}`);
      });
      instance.on('reqError', (error: Error) => errors.push(error.message || String(error)));
    });
  if (options.warmupMs > 0) await run(options.warmupMs, null);
  const latencies: number[] = [];
  const { errors, completed, elapsedMs } = await run(options.durationMs, latencies);
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
