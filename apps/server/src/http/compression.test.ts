import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { makeEnv } from '../env';
import { pgliteTestDatabase } from '../testing/test-databases';

/** A client page's worth of JSON, bigger than the plugin's own 8 KB ceiling for synchronous compression. */
const PAGE = {
  code: '0',
  msg: 'ok',
  data: {
    list: Array.from({ length: 120 }, (_, index) => ({
      customerId: 1_000_000 + index * 37,
      nameCn: ['陈嘉欣', '黄志明', '李晓慧'][index % 3],
      nameEn: `Chan Ka Yan ${index}`,
      accountNos: [`8002${41_361 + index * 91}`],
      totalAssetsHkd: 1_234_567.89 - index * 5_431.27,
    })),
  },
};

describe('API response compression', () => {
  let app: FastifyInstance;
  let body: string;

  beforeAll(async () => {
    const database = await pgliteTestDatabase.create();
    app = await buildApp({ env: makeEnv({ LOG_LEVEL: 'silent', WEB_DIST_DIR: '' }), database, logger: false });
    app.get('/test/page', async () => PAGE);
    app.get('/test/small', async () => ({ code: '0', msg: 'ok', data: { id: 1 } }));
    await app.ready();
    body = JSON.stringify(PAGE);
  });
  afterAll(async () => {
    await app.close();
  });

  it('sends brotli at quality 2 in one buffer with its length', async () => {
    expect(Buffer.byteLength(body)).toBeGreaterThan(8 * 1024);
    expect(Buffer.byteLength(body)).toBeLessThan(64 * 1024);
    const response = await app.inject({ url: '/test/page', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(response.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(body);
    // The encoder is deterministic: the same bytes as quality 2 gives, not the plugin's default 4.
    const quality2 = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 2 } });
    expect(response.rawPayload.equals(quality2)).toBe(true);
    // Compressed synchronously: a length, not a chunked stream.
    expect(response.headers['content-length']).toBe(String(response.rawPayload.length));
    expect(response.headers['transfer-encoding']).toBeUndefined();
    expect(response.headers.vary).toContain('accept-encoding');
  });

  it('falls back to gzip, and leaves small answers and identity requests alone', async () => {
    const gzip = await app.inject({ url: '/test/page', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(body);
    const small = await app.inject({ url: '/test/small', headers: { 'accept-encoding': 'br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ code: '0', msg: 'ok', data: { id: 1 } });
    const plain = await app.inject({ url: '/test/page', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(body);
  });
});
