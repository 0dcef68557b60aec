import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import { makeEnv } from '../../env';
import { openDatabase } from '../../db/client';
import { BookResultCache } from '../customer-search';

describe('/readyz count-cache counters', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildApp({
      env: makeEnv({ LOG_LEVEL: 'silent', WEB_DIST_DIR: '' }),
      database: await openDatabase({ pgliteDir: 'memory://' }),
    });
    await app.ready();
  });
  afterAll(() => app.close());

  const counters = async () =>
    (await app.inject('/readyz')).json<{ bookResultCache: { lookups: number; computed: number } }>().bookResultCache;

  it("count this process's lookups and the values it had to compute, for the benchmark's hit rate", async () => {
    const before = await counters();
    const cache = new BookResultCache();
    await cache.getOrCompute('total:a', '1', async () => 3);
    await cache.getOrCompute('total:a', '1', async () => 3);
    expect(cache.peek('total:b')).toBeUndefined();
    const after = await counters();
    // Three lookups: one answered from memory, two that were not (one of them then computed and stored).
    expect({ lookups: after.lookups - before.lookups, computed: after.computed - before.computed }).toEqual({ lookups: 3, computed: 1 });
  });
});
