import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase, type DatabaseHandle } from './client';
import { PGLITE_LOCK_FILE } from './pglite-lock';
import { auditLog, corps } from './schema';

/** A promise and the function that settles it: a point the test holds a transaction at. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

const errorOf = async (run: () => Promise<unknown>) => {
  try {
    await run();
  } catch (error) {
    return error as Error & { cause?: Record<string, unknown> };
  }
  throw new Error('expected a failure');
};

/** Every value type the repositories read, through Drizzle and through the raw query. */
const VALUES = sql`select 1::int4 as int4, 9007199254740993::int8 as big, 42::int8 as small_big, 12.50::numeric as amount,
  1.5::float8 as float, true as yes, 'text'::text as text, null::text as nothing,
  '{"a":[1,{"b":null}]}'::jsonb as doc, '{"x":1}'::json as plain_json, array[1,2]::int4[] as ints, array['a','b'] as texts,
  array[1.5, 2]::numeric[] as amounts, '2026-11-20'::date as day, '2026-11-20 08:30:00'::timestamp as local,
  '2026-11-20 08:30:00.123+08'::timestamptz as instant, array['2026-11-20'::date] as days, '1 day 02:00'::interval as span,
  '\\x0102ff'::bytea as bytes`;

describe('PGlite in a worker thread answers as PGlite in-process does (ADR 0036)', () => {
  let worker: DatabaseHandle;
  let inProcess: DatabaseHandle;

  beforeAll(async () => {
    [worker, inProcess] = await Promise.all([
      openDatabase({ pgliteDir: 'memory://', pgliteWorker: true }),
      openDatabase({ pgliteDir: 'memory://', pgliteWorker: false }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([worker?.close(), inProcess?.close()]);
  });

  it('runs in a worker only when asked: the in-process handle is PGlite itself', () => {
    expect(inProcess.pglite).toBeInstanceOf(PGlite);
    expect(worker.pglite).not.toBeInstanceOf(PGlite);
  });

  it('gives the same rows: Drizzle keeps dates, times and intervals as text; the raw query parses them as PGlite does', async () => {
    const rowsOf = async (handle: DatabaseHandle) =>
      (await handle.db.execute(VALUES)) as unknown as { rows: Array<Record<string, unknown>> };
    const [fromWorker, fromInProcess] = [await rowsOf(worker), await rowsOf(inProcess)];
    expect(fromWorker.rows).toEqual(fromInProcess.rows);
    expect(fromWorker.rows[0]).toMatchObject({ big: 9007199254740993n, small_big: 42, amount: '12.50', doc: { a: [1, { b: null }] } });
    expect(fromWorker.rows[0]).toMatchObject({ day: '2026-11-20', instant: '2026-11-20 00:30:00.123+00', span: '1 day 02:00:00' });
    expect(fromWorker.rows[0]!.bytes).toEqual(new Uint8Array([1, 2, 255]));

    const raw = (await worker.query(VALUES_TEXT))[0]!;
    expect(raw).toEqual((await inProcess.query(VALUES_TEXT))[0]);
    expect(raw.instant).toBeInstanceOf(Date);
    expect((raw.instant as Date).toISOString()).toBe('2026-11-20T00:30:00.123Z');
  });

  it('maps typed selects, inserts with returning, json parameters and Date parameters the same way', async () => {
    const write = async (handle: DatabaseHandle) => {
      const [corp] = await handle.db.insert(corps).values({ code: 'W', name: '维', wecomCorpId: 'ww' }).returning();
      const [entry] = await handle.db
        .insert(auditLog)
        .values({
          corpId: corp!.id,
          action: 'a',
          entity: 'e',
          entityId: '1',
          after: { n: 1, list: ['x'] },
          at: new Date('2026-11-20T01:02:03.004Z'),
        })
        .returning();
      const read = await handle.db.select().from(auditLog).where(eq(auditLog.id, entry!.id));
      return { corp: { ...corp!, createdAt: typeof corp!.createdAt }, entry, read };
    };
    const [fromWorker, fromInProcess] = await Promise.all([write(worker), write(inProcess)]);
    expect(fromWorker).toEqual(fromInProcess);
    expect(fromWorker.read[0]).toMatchObject({ after: { n: 1, list: ['x'] }, at: new Date('2026-11-20T01:02:03.004Z') });
  });

  it('keeps a PostgreSQL error’s fields (code, constraint, detail) under Drizzle’s error, as in-process', async () => {
    const duplicate = (handle: DatabaseHandle) =>
      errorOf(() =>
        handle.db.insert(corps).values([
          { code: 'DUP', name: 'a', wecomCorpId: 'x' },
          { code: 'DUP', name: 'b', wecomCorpId: 'y' },
        ]),
      );
    const [fromWorker, fromInProcess] = await Promise.all([duplicate(worker), duplicate(inProcess)]);
    const fieldsOf = (error: Error & { cause?: Record<string, unknown> }) => {
      const { code, constraint, detail, table, severity, message, name, schema } = error.cause!;
      return { code, constraint, detail, table, severity, message, name, schema, outer: error.message, text: String(error.cause) };
    };
    expect(fieldsOf(fromWorker)).toEqual(fieldsOf(fromInProcess));
    expect(fieldsOf(fromWorker)).toMatchObject({
      code: '23505',
      constraint: 'corp_code_unique',
      detail: 'Key (code)=(DUP) already exists.',
    });
    expect(fromWorker.cause).toBeInstanceOf(Error);
    // kyc.repository reads the constraint's name from the message and the cause's text.
    expect(String(fromWorker.cause)).toContain('corp_code_unique');

    const raw = await errorOf(() => worker.query('select 1/0'));
    expect(raw).toMatchObject({ code: '22012', message: 'division by zero' });
  });

  it('holds every other statement while a transaction is open, and runs the transaction’s own without waiting', async () => {
    const inside = gate();
    const release = gate();
    const order: string[] = [];
    const transaction = worker.db.transaction(async (tx) => {
      await tx.insert(corps).values({ code: 'TX', name: 'tx', wecomCorpId: 'tx' });
      inside.open();
      await release.opened;
      // After others were sent: the transaction's statements are not queued behind them.
      const [row] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(corps)
        .where(eq(corps.code, 'TX'));
      order.push(`transaction saw ${row!.n}`);
    });
    await inside.opened;
    const outside = worker.query<{ n: number }>(`select count(*)::int as n from corp where code = 'TX'`).then(([row]) => {
      order.push(`outside saw ${row!.n}`);
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    order.push('released');
    release.open();
    await Promise.all([transaction, outside]);
    expect(order).toEqual(['released', 'transaction saw 1', 'outside saw 1']);
  });

  it('rolls back when the callback throws, and lets the statements that waited run', async () => {
    const inside = gate();
    const failed = worker.db.transaction(async (tx) => {
      await tx.insert(corps).values({ code: 'GONE', name: 'gone', wecomCorpId: 'gone' });
      inside.open();
      throw new Error('the callback failed');
    });
    await inside.opened;
    const waiting = worker.query<{ n: number }>(`select count(*)::int as n from corp where code = 'GONE'`);
    await expect(failed).rejects.toThrow('the callback failed');
    expect(await waiting).toEqual([{ n: 0 }]);
  });

  it('rolls back a failed statement’s transaction, keeps a savepoint’s rollback inside, and serialises concurrent transactions', async () => {
    const failed = await errorOf(() =>
      worker.db.transaction(async (tx) => {
        await tx.insert(corps).values({ code: 'S1', name: 't', wecomCorpId: 't' });
        await tx.insert(corps).values({ code: 'S1', name: 't', wecomCorpId: 't' });
      }),
    );
    expect(failed.cause).toMatchObject({ code: '23505' });
    await worker.db.transaction(async (tx) => {
      await tx.insert(corps).values({ code: 'S2', name: 't', wecomCorpId: 't' });
      await expect(
        tx.transaction(async (inner) => {
          await inner.insert(corps).values({ code: 'S3', name: 't', wecomCorpId: 't' });
          throw new Error('inner');
        }),
      ).rejects.toThrow('inner');
    });
    const increments = Array.from({ length: 8 }, () =>
      worker.db.transaction(async (tx) => {
        const [row] = await tx.select({ name: corps.name }).from(corps).where(eq(corps.code, 'S2'));
        await new Promise((resolve) => setImmediate(resolve));
        await tx
          .update(corps)
          .set({ name: `${row!.name}+` })
          .where(eq(corps.code, 'S2'));
      }),
    );
    await Promise.all(increments);
    const rows = await worker.query<{ code: string; name: string }>(`select code, name from corp where code like 'S_' order by code`);
    expect(rows).toEqual([{ code: 'S2', name: 't++++++++' }]);
  });

  it('delivers NOTIFY to listen(), before the reply of the statement that sent it, until unsubscribed', async () => {
    const heard: string[] = [];
    const live: boolean[] = [];
    const stop = await worker.listen('pglite_worker_test', { onNotify: (payload) => heard.push(payload), onLive: (on) => live.push(on) });
    await worker.query(`select pg_notify('pglite_worker_test', 'one')`);
    expect(heard).toEqual(['one']);
    await worker.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_notify('pglite_worker_test', 'two')`);
      expect(heard).toEqual(['one']);
    });
    expect(heard).toEqual(['one', 'two']);
    await stop();
    await worker.query(`select pg_notify('pglite_worker_test', 'three')`);
    expect(heard).toEqual(['one', 'two']);
    expect(live).toEqual([true, false]);
  });

  it('loads COPY input from a Blob, as the seed’s bulk loader does', async () => {
    await worker.query('create table copied (id int, label text)');
    await worker.pglite!.query(`copy copied (id, label) from '/dev/blob'`, [], { blob: new Blob(['1\tone\n2\ttwo\n']) });
    expect(await worker.query('select * from copied order by id')).toEqual([
      { id: 1, label: 'one' },
      { id: 2, label: 'two' },
    ]);
  });
});

const VALUES_TEXT = `select 9007199254740993::int8 as big, 12.50::numeric as amount, '{"a":1}'::jsonb as doc,
  '2026-11-20'::date as day, '2026-11-20 08:30:00.123+08'::timestamptz as instant, array['2026-11-20'::date] as days`;

describe('PGlite’s thread and its directory', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'broker-pglite-worker-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('keeps the files across a close and an open, releases the lock on close, and refuses statements after it', async () => {
    const dir = join(root, 'pglite');
    const first = await openDatabase({ pgliteDir: dir, holder: 'first', pgliteWorker: true });
    await first.query(`insert into corp (code, name, wecom_corp_id) values ('KEPT', 'kept', 'k')`);
    expect(existsSync(join(dir, PGLITE_LOCK_FILE))).toBe(true);
    await first.close();
    expect(existsSync(join(dir, PGLITE_LOCK_FILE))).toBe(false);
    await expect(first.query('select 1')).rejects.toThrow(/PGlite's thread has ended/);

    const second = await openDatabase({ pgliteDir: dir, holder: 'second', pgliteWorker: true });
    try {
      expect(await second.query(`select code from corp where code = 'KEPT'`)).toEqual([{ code: 'KEPT' }]);
    } finally {
      await second.close();
    }
  });
});
