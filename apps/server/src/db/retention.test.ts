import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { seedDemoData } from './seed';
import { testDatabases } from '../testing';
import type { DatabaseHandle } from './client';
import { createAuthRepository, ENDED_SESSION_RETENTION_DAYS } from '../modules/auth/auth.repository';
import { CALLBACK_EVENT_RETENTION_DAYS, createContactChangeRepository } from '../modules/wecom-callback/contact-change.repository';
import { selectRows } from './sql-rows';

/*
 * Tables that grow with every sign-in or callback keep only what still matters: sessions a week past
 * their expiry and callback events older than a month go as new rows come in, in small batches.
 */
describe.each(testDatabases())('retention of sessions and callback events ($kind)', (engine) => {
  let database: DatabaseHandle & { drop(): Promise<void> };
  let corpId: number;
  let staffId: number;

  beforeAll(async () => {
    database = await engine.create();
    await seedDemoData(database, { customers: 5, seed: 3, asOf: '2026-11-20' });
    const [row] = await selectRows<{ corpId: number; staffId: number }>(
      database.db,
      sql`select corp_id as "corpId", id as "staffId" from staff order by id limit 1`,
    );
    ({ corpId, staffId } = row!);
  });
  afterAll(() => database?.drop());

  const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

  it(`a new session deletes sessions expired more than ${ENDED_SESSION_RETENTION_DAYS} days ago, and only those`, async () => {
    const auth = createAuthRepository(database.db);
    const session = (name: string, expiresAt: Date) => ({
      tokenHash: `hash-${name}`,
      staffId,
      corpId,
      agentCode: 'khzl',
      expiresAt,
      bindingHash: 'b',
    });
    await database.db.execute(sql`delete from auth_session`);
    for (const [name, expiresAt] of [
      ['long-gone', daysAgo(ENDED_SESSION_RETENTION_DAYS + 2)],
      ['just-expired', daysAgo(1)],
      ['live', daysAgo(-1)],
    ] as const) {
      await database.db.execute(
        sql`insert into auth_session (token_hash, staff_id, corp_id, agent_code, expires_at, binding_hash)
            values (${session(name, expiresAt).tokenHash}, ${staffId}, ${corpId}, 'khzl', ${expiresAt.toISOString()}, 'b')`,
      );
    }
    await auth.createSession(session('new', daysAgo(-1)));
    const left = await selectRows<{ tokenHash: string }>(
      database.db,
      sql`select token_hash as "tokenHash" from auth_session order by token_hash`,
    );
    expect(left.map((row) => row.tokenHash)).toEqual(['hash-just-expired', 'hash-live', 'hash-new']);
  });

  it(`a new callback event deletes events received more than ${CALLBACK_EVENT_RETENTION_DAYS} days ago`, async () => {
    const event = (key: string) => ({
      corpId,
      eventKey: key,
      changeType: 'del_follow_user',
      wecomUserId: 'u',
      externalUserId: 'wm',
      occurredAt: new Date(),
    });
    await database.db.transaction(async (tx) => {
      const repository = createContactChangeRepository(tx);
      expect(await repository.claim(event('old'))).toBe(true);
      expect(await repository.claim(event('recent'))).toBe(true);
    });
    await database.db.execute(
      sql`update wecom_callback_event set received_at = now() - make_interval(days => ${CALLBACK_EVENT_RETENTION_DAYS + 1}) where event_key = 'old'`,
    );
    await database.db.execute(sql`update wecom_callback_event set received_at = now() - interval '2 days' where event_key = 'recent'`);
    await database.db.transaction(async (tx) => {
      const repository = createContactChangeRepository(tx);
      expect(await repository.claim(event('new'))).toBe(true);
      // A retry of a kept event is still recognised as one.
      expect(await repository.claim(event('recent'))).toBe(false);
    });
    const left = await selectRows<{ eventKey: string }>(
      database.db,
      sql`select event_key as "eventKey" from wecom_callback_event order by event_key`,
    );
    expect(left.map((row) => row.eventKey)).toEqual(['new', 'recent']);
  });
});
