import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../testing/test-databases';
import type { DatabaseHandle } from '../db/client';
import { createCredentialStore } from './credential-store';

describe.each(testDatabases())('WeCom credential store ($kind)', (engine) => {
  let database: DatabaseHandle & { drop(): Promise<void> };
  let lockStatements = 0;
  let corpId: number;

  beforeAll(async () => {
    database = await engine.create({
      onQuery: (text) => {
        if (text.includes('pg_advisory_xact_lock')) lockStatements += 1;
      },
    });
    const [corp] = await database.query<{ id: number }>(
      `insert into corp (code, name, wecom_corp_id) values ('store-test', 'Store test', 'ww-store-test') returning id`,
    );
    corpId = corp!.id;
  });
  afterAll(() => database.drop());

  it('a burst of misses in one process makes one refresh: one upstream call, one locked transaction', async () => {
    const store = createCredentialStore(database.db);
    let upstreamCalls = 0;
    const fetchFresh = async () => {
      upstreamCalls += 1;
      await new Promise((resolve) => setTimeout(resolve, 100));
      return { value: `token-${upstreamCalls}`, expiresIn: 7200 };
    };
    lockStatements = 0;
    // More callers than the test pool has connections (8): waiters must not each hold one.
    const values = await Promise.all(Array.from({ length: 20 }, () => store.get(corpId, 'khzl', 'access_token', fetchFresh)));
    expect(new Set(values)).toEqual(new Set(['token-1']));
    expect(upstreamCalls).toBe(1);
    expect(lockStatements).toBe(1);
    // Cached afterwards: no refresh at all.
    expect(await store.get(corpId, 'khzl', 'access_token', fetchFresh)).toBe('token-1');
    expect(lockStatements).toBe(1);
  });

  it('a failed refresh reaches every waiter and the next call tries again', async () => {
    const store = createCredentialStore(database.db);
    const failing = async (): Promise<{ value: string; expiresIn: number }> => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      throw new Error('WeCom down');
    };
    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => store.get(corpId, 'mot', 'access_token', failing)));
    expect(outcomes.every((outcome) => outcome.status === 'rejected')).toBe(true);
    expect(await store.get(corpId, 'mot', 'access_token', async () => ({ value: 'recovered', expiresIn: 7200 }))).toBe('recovered');
  });

  it('a lifetime WeCom states that no clock can hold (NaN, 1e20, negative) is taken as WeCom’s documented two hours', async () => {
    const store = createCredentialStore(database.db);
    for (const [index, expiresIn] of [Number.NaN, 1e20, -5, 0, 7200.5].entries()) {
      const kind = index % 2 ? 'jsapi_ticket' : 'agent_ticket';
      await database.query('delete from wecom_credential where corp_id = $1', [corpId]);
      expect(await store.get(corpId, 'khgl', kind, async () => ({ value: `t${index}`, expiresIn }))).toBe(`t${index}`);
      const [row] = await database.query<{ seconds: number }>(
        'select extract(epoch from expires_at - now())::float8 as seconds from wecom_credential where corp_id = $1',
        [corpId],
      );
      expect(row!.seconds, String(expiresIn)).toBeGreaterThan(6800);
      expect(row!.seconds, String(expiresIn)).toBeLessThanOrEqual(7200);
    }
  });
});
