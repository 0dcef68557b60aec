import type { Endpoint } from '@broker/contract';
import { buildApp, makeEnv, type DatabaseHandle } from '@broker/server';
import { signInAs } from '@broker/server/testing';
import { callEndpoint, wireRequest, type EndpointInput } from './http-request';
import type { CapturedRequest, createStatementRecorder } from './sql-replay';

/** Requests captured for the SQL replay (or mirrored): the first this many of a cell (the replay takes them round-robin). */
export const CAPTURE_LIMIT = 3000;

/**
 * The app in the benchmark's own process, on a handle that reports every statement, sent the server's requests in order
 * one at a time: its caches meet each as the server's did, and it keeps what each ran.
 */
export async function startCaptureApp(handle: DatabaseHandle, recorder: ReturnType<typeof createStatementRecorder>, staffUserId: string) {
  const app = await buildApp({
    env: makeEnv({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', SEED_DEMO: 'false', WEB_DIST_DIR: '' }),
    tuning: { motSweepIntervalMs: 0 },
    database: handle,
    ownsDatabase: false,
    logger: false,
  });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
  } catch (error) {
    await app.close();
    throw error;
  }
  const baseUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const auth = await signInAs(baseUrl, staffUserId);
  return {
    baseUrl,
    headers: auth.headers,
    /** What each input's call ran; a call that failed is kept (its statements ran) and described in `failures`. */
    async capture(endpoint: Endpoint, inputs: readonly EndpointInput[]): Promise<{ requests: CapturedRequest[]; failures: string[] }> {
      const requests: CapturedRequest[] = [];
      const failures: string[] = [];
      for (const input of inputs.slice(0, CAPTURE_LIMIT)) {
        const { request } = await recorder.record(() =>
          callEndpoint(baseUrl, wireRequest(endpoint, input, auth.headers)).catch((error: unknown) => {
            failures.push(error instanceof Error ? error.message : String(error));
          }),
        );
        requests.push(request);
      }
      return { requests, failures };
    },
    /** Sends what the server was sent but the replay does not need, so this app's state follows the server's. */
    async mirror(endpoint: Endpoint, inputs: readonly EndpointInput[]): Promise<void> {
      for (const input of inputs.slice(0, CAPTURE_LIMIT))
        await callEndpoint(baseUrl, wireRequest(endpoint, input, auth.headers)).catch(() => undefined);
    },
    close: () => app.close(),
  };
}

export type CaptureApp = Awaited<ReturnType<typeof startCaptureApp>>;
