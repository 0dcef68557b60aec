import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { makeEnv } from '../env';
import { pgliteTestDatabase } from '../testing/test-databases';
import { rawHttp, requestHead } from '../testing/raw-http';

const BIG_ASSET = `export const rows = ${JSON.stringify(Array.from({ length: 400 }, (_, index) => ({ index, name: `row ${index}` })))};`;
const PRECOMPRESSED_BR = brotliCompressSync(BIG_ASSET);

describe('serving the web app', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    const dist = mkdtempSync(join(tmpdir(), 'web-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root">broker</div>');
    writeFileSync(join(dist, 'assets', 'app-3f2a.js'), 'console.log("app")');
    // As the build's precompress plugin leaves them: the compressed copies beside the file.
    writeFileSync(join(dist, 'assets', 'big-9c1d.js'), BIG_ASSET);
    writeFileSync(join(dist, 'assets', 'big-9c1d.js.br'), PRECOMPRESSED_BR);
    writeFileSync(join(dist, 'assets', 'big-9c1d.js.gz'), gzipSync(BIG_ASSET, { level: 9 }));
    const database = await pgliteTestDatabase.create();
    app = await buildApp({ env: makeEnv({ LOG_LEVEL: 'silent', WEB_DIST_DIR: dist }), database, logger: false });
  });
  afterAll(async () => {
    await app.close();
  });

  it('falls back to index.html for client routes, uncached', async () => {
    for (const path of ['/', '/client/manage/list', '/mot/eventDetail?id=3', '/wxEntry?code=x']) {
      const response = await app.inject({ method: 'GET', url: path, headers: { accept: 'text/html' } });
      expect(response.statusCode, path).toBe(200);
      expect(response.body).toContain('broker');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves hashed assets with a long cache life', async () => {
    const response = await app.inject('/assets/app-3f2a.js');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('immutable');
  });

  it('sends the build’s precompressed copy as it is, not compressing again', async () => {
    const brotli = await app.inject({ url: '/assets/big-9c1d.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.rawPayload.equals(PRECOMPRESSED_BR)).toBe(true);
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(BIG_ASSET);
    const gzip = await app.inject({ url: '/assets/big-9c1d.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const plain = await app.inject({ url: '/assets/big-9c1d.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BIG_ASSET);
  });

  it('keeps API misses and missing files as 404s, not the SPA', async () => {
    expect((await app.inject('/api/unknown')).json()).toMatchObject({ code: '090610' });
    expect((await app.inject('/assets/missing.js')).statusCode).toBe(404);
    expect((await app.inject({ method: 'POST', url: '/client/manage/list' })).statusCode).toBe(404);
  });

  // Over a real socket: inject would read `//api/x` as a URL whose host is "api".
  it('answers every unknown path under the API prefix with the 404 envelope, in any case and with doubled slashes', async () => {
    const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    for (const path of [
      '//api/unknown',
      '///api/x',
      '/API/unknown',
      '/Api/auth/login/qywx',
      '/api//x',
      '//API//x?y=1',
      '/READYZ/x',
      '//wecom/x',
    ]) {
      for (const method of ['GET', 'HEAD']) {
        const answer = await rawHttp(baseUrl, [requestHead(method, path, { accept: 'text/html', connection: 'close' })]);
        expect(answer.status, `${method} ${path}: ${answer.text.slice(0, 200)}`).toBe(404);
        expect(answer.headers['content-type'], `${method} ${path}`).toMatch(/^application\/json/);
        if (method === 'GET') expect(answer.body, path).toMatchObject({ code: '090610' });
      }
    }
    // SPEC.md's own path has a double slash: it is routed (and refused for want of a session), not a 404.
    const body = '{"customerId":1}';
    const spec = await rawHttp(baseUrl, [
      requestHead('POST', '/api/mot//todoEvent/clientHistory', {
        'corp-code': 'fxhl',
        'agent-code': 'mot',
        'content-type': 'application/json',
        'content-length': body.length,
        connection: 'close',
      }) + body,
    ]);
    expect(spec.body, spec.text).toMatchObject({ code: '080001' });
  });
});
