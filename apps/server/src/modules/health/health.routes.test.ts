import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import { makeEnv, ConfigError, loadEnv } from '../../env';
import { healthDetailHeaders, pgliteTestDatabase, TEST_HEALTH_DETAIL_TOKEN } from '../../testing';
import { readinessAudience } from './health.routes';

const appWith = async (detailToken?: string) => {
  const app = await buildApp({
    env: makeEnv({ LOG_LEVEL: 'silent', WEB_DIST_DIR: '', ...(detailToken ? { HEALTH_DETAIL_TOKEN: detailToken } : {}) }),
    database: await pgliteTestDatabase.create(),
  });
  await app.ready();
  return app;
};

describe('/readyz: readiness for everyone, the details only for monitoring with HEALTH_DETAIL_TOKEN (ADR 0054)', () => {
  let app: FastifyInstance;
  let tokenless: FastifyInstance;
  beforeAll(async () => {
    [app, tokenless] = await Promise.all([appWith(TEST_HEALTH_DETAIL_TOKEN), appWith()]);
  });
  afterAll(() => Promise.all([app.close(), tokenless.close()]));

  it('without a credential: ready or not, and nothing of the deployment (standbys, WeCom apps, counters)', async () => {
    for (const server of [app, tokenless]) {
      const answer = await server.inject('/readyz');
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ status: 'ready' });
      expect(answer.headers['cache-control']).toBe('no-store');
    }
  });

  it('with the token: the details', async () => {
    const answer = await app.inject({ url: '/readyz', headers: healthDetailHeaders });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({
      status: 'ready',
      database: 'pglite',
      wecom: { status: expect.any(String) },
      bookIndex: expect.any(Object),
    });
  });

  it('a wrong, malformed or unexpected credential is refused with 401 and shows nothing', async () => {
    const wrong = [
      `Bearer ${TEST_HEALTH_DETAIL_TOKEN}x`,
      `Bearer ${TEST_HEALTH_DETAIL_TOKEN.slice(0, -1)}`,
      `bearer ${TEST_HEALTH_DETAIL_TOKEN}`,
      `Basic ${Buffer.from(`monitor:${TEST_HEALTH_DETAIL_TOKEN}`).toString('base64')}`,
      TEST_HEALTH_DETAIL_TOKEN,
      `Bearer  ${TEST_HEALTH_DETAIL_TOKEN}`,
      'Bearer ',
      '',
    ];
    for (const authorization of wrong) {
      const answer = await app.inject({ url: '/readyz', headers: { authorization } });
      expect(answer.statusCode, authorization).toBe(401);
      expect(Object.keys(answer.json()).sort(), authorization).toEqual(['msg', 'status']);
      expect(answer.json<{ msg: string }>().msg).toMatch(/^authorization: /);
    }
    // A server without a token shows no details to anyone, whatever is presented.
    const answer = await tokenless.inject({ url: '/readyz', headers: healthDetailHeaders });
    expect(answer.statusCode).toBe(401);
    expect(answer.json<{ msg: string }>().msg).toContain('no HEALTH_DETAIL_TOKEN');
  });

  it('an unready replica says only "unavailable" without the token, and the database kind with it', async () => {
    const lonely = await pgliteTestDatabase.create();
    const other = await buildApp({
      env: makeEnv({ LOG_LEVEL: 'silent', WEB_DIST_DIR: '', HEALTH_DETAIL_TOKEN: TEST_HEALTH_DETAIL_TOKEN }),
      database: lonely,
      logger: false,
    });
    await lonely.close();
    const plain = await other.inject('/readyz');
    expect([plain.statusCode, plain.json()]).toEqual([503, { status: 'unavailable' }]);
    const detailed = await other.inject({ url: '/readyz', headers: healthDetailHeaders });
    expect(detailed.statusCode).toBe(503);
    expect(detailed.json()).toMatchObject({ status: 'unavailable', database: 'pglite' });
    await other.close().catch(() => undefined);
  });

  it('the token must be long enough to guess at no rate, and one word', () => {
    expect(() => loadEnv({ HEALTH_DETAIL_TOKEN: 'short' })).toThrow(ConfigError);
    expect(() => loadEnv({ HEALTH_DETAIL_TOKEN: 'short' })).toThrow(/HEALTH_DETAIL_TOKEN.*at least 32 characters/s);
    expect(() => loadEnv({ HEALTH_DETAIL_TOKEN: `${'a'.repeat(20)} ${'b'.repeat(20)}` })).toThrow(/HEALTH_DETAIL_TOKEN.*printable ASCII/s);
    expect(loadEnv({ HEALTH_DETAIL_TOKEN: TEST_HEALTH_DETAIL_TOKEN }).HEALTH_DETAIL_TOKEN).toBe(TEST_HEALTH_DETAIL_TOKEN);
  });

  it('readinessAudience: no header is a load balancer, the exact bearer token is monitoring, anything else is refused', () => {
    const token = 'm'.repeat(40);
    expect(readinessAudience(undefined, token)).toBe('status');
    expect(readinessAudience(undefined, undefined)).toBe('status');
    expect(readinessAudience(`Bearer ${token}`, token)).toBe('detail');
    expect(readinessAudience(`Bearer ${token}`, undefined)).toBe('refused');
    expect(readinessAudience(`Bearer ${'m'.repeat(39)}`, token)).toBe('refused');
    expect(readinessAudience(`Bearer ${token}\n`, token)).toBe('refused');
  });
});
