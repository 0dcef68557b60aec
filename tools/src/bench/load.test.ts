import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@broker/server';
import { testDatabases } from '@broker/server/testing';
import { bigTableSeqScans, explainCaptured } from './explain';
import { connectionShares, driveFixedRate, driveHttp } from './http-load';
import { createStatementRecorder, replaySql, sqlRunnerFor } from './sql-replay';

for (const engine of testDatabases()) {
  describe(`SQL capture and replay (${engine.kind})`, () => {
    const recorder = createStatementRecorder();
    let database: DatabaseHandle & { drop(): Promise<void> };
    beforeAll(async () => {
      database = await engine.create({ onQuery: recorder.observe });
    });
    afterAll(() => database.drop());

    it('keeps what one call ran, in order, with its parameters', async () => {
      const { request } = await recorder.record(async () => {
        await Promise.all([database.query('select $1::int as a', [1]), database.query('select $1::int as b', [2])]);
        await database.query('select $1::text as c', ['x']);
      });
      expect(request.flat().map((statement) => [statement.text, statement.params])).toEqual([
        ['select $1::int as a', [1]],
        ['select $1::int as b', [2]],
        ['select $1::text as c', ['x']],
      ]);
      // PostgreSQL answers over a socket, so the awaited statement starts a new round trip; PGlite
      // answers in-process and may not, which costs nothing: it runs one statement at a time anyway.
      if (engine.kind === 'postgres') expect(request.map((wave) => wave.length)).toEqual([2, 1]);
      expect(await recorder.record(async () => undefined)).toMatchObject({ request: [] });
    });

    it('replays captured requests at the given concurrency and counts failing ones', async () => {
      const good = (await recorder.record(() => database.query('select count(*) from customer'))).request;
      const bad = (await recorder.record(() => database.query('select 1').then(() => undefined))).request;
      bad[0]![0]!.text = 'select * from no_such_table';
      const measurement = await replaySql(sqlRunnerFor(database), [good, bad], { concurrency: 4, durationMs: 500, warmupMs: 0 });
      expect(measurement.requests).toBeGreaterThan(4);
      expect(measurement.latency.count).toBeGreaterThan(0);
      expect(measurement.errors).toBeGreaterThan(0);
      expect(measurement.errors + measurement.latency.count).toBe(measurement.requests);
      expect(measurement.errorSamples.join()).toContain('no_such_table');
    });

    it('explains captured statements and flags a sequential scan over a big table', async () => {
      const scan = (await recorder.record(() => database.query('select count(*) from customer where phone_digits = $1', ['1']))).request;
      const { markdown, seqScans } = await explainCaptured(database, new Map([['phone', [scan]]]), 3);
      expect(markdown).toContain('## phone');
      expect(markdown).toContain('-- params: ["1"]');
      expect(seqScans).toEqual(['phone: Seq Scan on customer']);
    });
  });
}

describe('bigTableSeqScans', () => {
  it('names only customer, trade and money_movement, once each', () => {
    const plan = [
      'Seq Scan on staff s',
      '->  Seq Scan on trade t',
      'Seq Scan on trade',
      'Index Scan using customer_pkey on customer c',
    ].join('\n');
    expect(bigTableSeqScans(plan)).toEqual(['trade']);
    expect(bigTableSeqScans('Parallel Seq Scan on money_movement m')).toEqual(['money_movement']);
  });
});

describe('HTTP load', () => {
  let server: Server;
  let baseUrl: string;
  beforeAll(async () => {
    // Every third request fails: the load driver must count them, not just time the rest.
    let served = 0;
    server = createServer((_request, response) => {
      served += 1;
      response.writeHead(served % 3 === 0 ? 503 : 200, { 'content-type': 'application/json' });
      response.end('{"code":"0","msg":"","data":null}');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('counts non-2xx answers as errors and times only the successful ones', async () => {
    const measurement = await driveHttp(baseUrl, [{ method: 'GET', path: '/a', headers: {} }], {
      concurrency: 2,
      durationMs: 300,
    });
    expect(measurement.requests).toBeGreaterThan(10);
    expect(measurement.errors).toBeGreaterThan(0);
    expect(measurement.errors + measurement.latency.count).toBe(measurement.requests);
    expect(measurement.errorSamples[0]).toMatch(/^HTTP 503 ×\d+$/);
  });

  it('sends rate × duration requests, takes each from the source, and counts non-2xx answers as errors', async () => {
    const paths: string[] = [];
    const measurement = await driveFixedRate(
      baseUrl,
      () => {
        paths.push(`/r${paths.length}`);
        return { method: 'POST', path: paths.at(-1)!, body: '{"a":1}', headers: { 'content-type': 'application/json' } };
      },
      { ratePerSecond: 200, durationMs: 150 },
    );
    expect(paths).toHaveLength(30);
    expect(new Set(paths).size).toBe(30);
    expect(measurement.requests).toBe(30);
    // Thirty requests in a row: every third answered 503, whatever was served before.
    expect(measurement.errors).toBe(10);
    expect(measurement.latency.count).toBe(20);
    expect(measurement.errorSamples).toEqual(['HTTP 503 ×10']);
  });

  it('counts refused connections as errors', async () => {
    const measurement = await driveFixedRate('http://127.0.0.1:1', [{ method: 'GET', path: '/', headers: {} }], {
      ratePerSecond: 100,
      durationMs: 50,
    });
    expect(measurement.requests).toBe(5);
    expect(measurement.latency.count).toBe(0);
    expect(measurement.errors).toBe(5);
  });

  it('counts refused connections as errors in the closed loop', async () => {
    const measurement = await driveHttp('http://127.0.0.1:1', [{ method: 'GET', path: '/', headers: {} }], {
      concurrency: 1,
      durationMs: 200,
    });
    expect(measurement.latency.count).toBe(0);
    expect(measurement.errors).toBeGreaterThan(0);
  });
});

describe('replicas: the load spread as a balancer spreads it', () => {
  const servers: Server[] = [];
  /** Per replica, the paths it answered (each test sends its own path: a closed loop's last requests land after it ends). */
  const served: string[][] = [[], []];
  const count = (index: number, path: string) => served[index]!.filter((one) => one === path).length;
  const urls: string[] = [];
  beforeAll(async () => {
    for (const index of [0, 1]) {
      const server = createServer((request, response) => {
        served[index]!.push(request.url ?? '');
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"code":"0","msg":"","data":null}');
      });
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      servers.push(server);
      urls.push(`http://127.0.0.1:${(server.address() as { port: number }).port}`);
    }
  });
  afterAll(() => Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())))));

  it('shares connections out evenly, the first replicas taking the remainder, none left idle with a connection to spare', () => {
    expect(connectionShares(['a', 'b'], 16)).toEqual([
      ['a', 8],
      ['b', 8],
    ]);
    expect(connectionShares(['a', 'b'], 1)).toEqual([['a', 1]]);
    expect(connectionShares(['a', 'b', 'c'], 64)).toEqual([
      ['a', 22],
      ['b', 21],
      ['c', 21],
    ]);
    expect(() => connectionShares([], 4)).toThrow(/no server/);
  });

  it('drives every replica in the closed loop and counts every answer once', async () => {
    const measurement = await driveHttp(urls, [{ method: 'GET', path: '/closed', headers: {} }], {
      concurrency: 4,
      durationMs: 300,
    });
    const total = count(0, '/closed') + count(1, '/closed');
    expect(count(0, '/closed')).toBeGreaterThan(5);
    expect(count(1, '/closed')).toBeGreaterThan(5);
    // Counted once: at most what the replicas served, short of it by no more than the requests in flight at the end.
    expect(measurement.requests).toBeLessThanOrEqual(total);
    expect(measurement.requests).toBeGreaterThanOrEqual(total - 4);
    expect(measurement.latency.count).toBe(measurement.requests);
  });

  it('sends a fixed rate to each replica in turn', async () => {
    const measurement = await driveFixedRate(urls, [{ method: 'GET', path: '/fixed', headers: {} }], {
      ratePerSecond: 200,
      durationMs: 100,
    });
    expect(measurement.requests).toBe(20);
    expect([count(0, '/fixed'), count(1, '/fixed')]).toEqual([10, 10]);
  });
});

describe('fixed-rate driver against a server that holds answers', () => {
  let server: Server;
  let baseUrl: string;
  /** What the server does with a request: answer at once, or hold it until `release` is called. */
  let onRequest: (path: string, answer: () => void) => void;
  const received: string[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      received.push(request.url!);
      request.resume();
      onRequest(request.url!, () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"code":"0"}'));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const requests = (count: number) =>
    Array.from({ length: count }, (_, index) => ({ method: 'GET' as const, path: `/r${index}`, headers: {} }));

  it('times requests queued behind a slow answer from their intended send times, and sends every one', async () => {
    // One connection: the first answer takes 300 ms, and the nine requests due meanwhile (every
    // 10 ms) wait for it in the driver's queue. Request i cannot be answered before the first one,
    // so from its intended time (10·i ms) it takes at least 300 − 10·i ms; timed from when the
    // connection was free to send it, it would take about a millisecond.
    received.length = 0;
    onRequest = (path, answer) => (path === '/r0' ? setTimeout(answer, 300) : answer());
    const measurement = await driveFixedRate(baseUrl, requests(10), { ratePerSecond: 100, durationMs: 100, maxConnections: 1 });
    expect(received).toEqual(requests(10).map((request) => request.path));
    expect(measurement.requests).toBe(10);
    expect(measurement.errors).toBe(0);
    expect(measurement.latency.count).toBe(10);
    // Lower bounds 300, 290, …, 210: their mean is 255 and their median (nearest rank, the fifth smallest) 250.
    expect(measurement.latency.mean).toBeGreaterThanOrEqual(255 - 1);
    expect(measurement.latency.p50).toBeGreaterThanOrEqual(250 - 1);
    expect(measurement.latency.max).toBeGreaterThanOrEqual(300 - 1);
  });

  it('sends the requests due while an answer is held on other connections, without waiting for it', async () => {
    // The first answer is held until the server has received all the others: a driver that waited
    // for answers before sending would never finish (and the test would time out).
    received.length = 0;
    let releaseFirst: (() => void) | null = null;
    onRequest = (path, answer) => {
      if (path === '/r0') releaseFirst = answer;
      else answer();
      if (received.length === 8) releaseFirst!();
    };
    const measurement = await driveFixedRate(baseUrl, requests(8), { ratePerSecond: 200, durationMs: 40 });
    expect(new Set(received)).toEqual(new Set(requests(8).map((request) => request.path)));
    expect(measurement.requests).toBe(8);
    expect(measurement.errors).toBe(0);
  });
});
