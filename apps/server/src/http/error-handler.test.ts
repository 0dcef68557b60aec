import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { errorEnvelopeSchema } from '@broker/contract';
import { buildApp } from '../app';
import { makeEnv } from '../env';
import { healthDetailHeaders, TEST_HEALTH_DETAIL_TOKEN } from '../testing';
import type { DatabaseHandle } from '../db/client';
import { pgliteTestDatabase } from '../testing/test-databases';

describe('error envelope', () => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  const logged: string[] = [];

  beforeAll(async () => {
    database = await pgliteTestDatabase.create();
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    app = await buildApp({
      env: makeEnv({ LOG_LEVEL: 'error', WEB_DIST_DIR: '', HEALTH_DETAIL_TOKEN: TEST_HEALTH_DETAIL_TOKEN }),
      database,
      logStream,
    });
    app.get('/api/test/explode', async () => {
      throw new Error('connection to 10.0.0.7 refused: password=hunter2');
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });

  it('hides the internals of a 500 and carries a request id that the log also has', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/test/explode', headers: { 'x-request-id': 'req-abc-123' } });
    expect(response.statusCode).toBe(500);
    const body = errorEnvelopeSchema.parse(response.json());
    expect(body).toMatchObject({ code: '090500', requestId: 'req-abc-123', data: null });
    expect(body.msg).toContain('req-abc-123');
    expect(response.body).not.toContain('hunter2');
    expect(response.body).not.toContain('10.0.0.7');
    expect(response.body).not.toMatch(/at .*\.ts:\d+/);
    // What the client may not see, the operator must: the log line carries the same id and the cause.
    const line = logged
      .map((text) => JSON.parse(text) as { reqId?: string; level: number; err?: { message?: string } })
      .find((entry) => entry.reqId === 'req-abc-123');
    expect(line?.level).toBe(50);
    expect(line?.err?.message).toContain('refused');
    expect(response.headers['x-request-id']).toBe('req-abc-123');
  });

  it('answers health and readiness', async () => {
    expect((await app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    // WeCom beside the database: unchecked until the start-up probe runs (main.ts).
    expect((await app.inject({ url: '/readyz', headers: healthDetailHeaders })).json()).toMatchObject({
      status: 'ready',
      database: 'pglite',
      wecom: { status: 'unchecked' },
    });
  });

  it('serves an OpenAPI 3.1 document generated from the contract, and its viewer', async () => {
    const doc = (await app.inject('/api/docs/json')).json<{ openapi: string; paths: Record<string, unknown> }>();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/auth/login/qywx', '/api/aggregation/qywx/getJsSdkSign']));
    const viewer = await app.inject('/api/docs/');
    expect(viewer.statusCode).toBe(200);
    expect(viewer.body).toContain('swagger');
  });

  it('reports readiness failure when the database is gone', async () => {
    const lonely = await pgliteTestDatabase.create();
    const other = await buildApp({ env: makeEnv({ LOG_LEVEL: 'silent', WEB_DIST_DIR: '' }), database: lonely, logger: false });
    await lonely.close();
    const response = await other.inject('/readyz');
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'unavailable' });
    await other.close().catch(() => undefined);
  });
});
