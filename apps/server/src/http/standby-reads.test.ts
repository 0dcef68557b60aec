import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { defineEndpoint, ErrorCode, HEADER_AGENT, HEADER_CORP } from '@broker/contract';
import errorHandlerPlugin from '../plugins/error-handler.plugin';
import { routeEndpoint } from './endpoint-route';
import { apiClient, healthDetailHeaders, signInAs, startTestApp, testDatabases, type ApiClient, type RunningTestApp } from '../testing';
import { endpointEntries, seedEndpointFixture, sweepCaller, validInputs, type EndpointFixture } from '../testing/endpoint-fixture';
import { openDatabase, type DatabaseHandle, type StandbyOptions } from '../db/client';
import { STANDBY_READS } from './standby-reads';
import { formatLsn, parseLsn } from '../db/lsn';

/*
 * ADR 0052 without replication: the "standby" is the test database itself, reached by a session in
 * which every transaction is read-only, so a write routed to it fails loudly ("cannot execute … in a
 * read-only transaction") instead of passing unseen. The same server is not in recovery, and is
 * trusted only because it is the primary itself (standby-monitor.ts). Real replication, PgBouncer and
 * two API processes are the process test's (issue 25, part 4).
 */
const postgres = testDatabases().filter((engine) => engine.kind === 'postgres');

const readOnly = (url: string) => {
  const parsed = new URL(url);
  parsed.searchParams.set('options', '-c default_transaction_read_only=on');
  return parsed.toString();
};

const WAIT_MS = 200;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const standbysAt = (urls: string[], more: Partial<StandbyOptions> = {}): StandbyOptions => ({
  urls,
  maxLagMs: 5000,
  waitMs: WAIT_MS,
  ...more,
});

const readAfterCookie = /^broker_read_after=([0-9A-F]{1,8}\/[0-9A-F]{1,8}); Max-Age=15; Path=\/; HttpOnly; SameSite=Strict$/;

for (const engine of postgres) {
  describe(`reads on standbys (${engine.kind}; a read-only session of the same database as the standby)`, () => {
    let primary: DatabaseHandle & { drop(): Promise<void>; url?: string };
    let routed: DatabaseHandle;
    let server: RunningTestApp;
    let fixture: EndpointFixture;
    let chan: ApiClient;
    let chanSignedIn: Awaited<ReturnType<typeof signInAs>>;

    const standbyReads = () => routed.reads!.standbys()[0]!.reads;

    beforeAll(async () => {
      primary = await engine.create();
      fixture = await seedEndpointFixture(primary);
      routed = await openDatabase({ url: primary.url!, migrate: false, poolMax: 8, standbys: standbysAt([readOnly(primary.url!)]) });
      // Searches in SQL, not in the book's in-memory index (which is the primary's, ADR 0052): so they reach the standby.
      server = await startTestApp(routed, { SEARCH_INDEX_MAX_ROWS: '0', LOGIN_RATE_LIMIT: '0', KYC_SEARCH_RATE_LIMIT: '0' });
      chanSignedIn = await signInAs(server.baseUrl, 'chanwaiman');
      chan = apiClient(server.baseUrl, { token: chanSignedIn.token, cookies: chanSignedIn.jar });
    });
    afterAll(async () => {
      await server?.close();
      await routed?.close();
      await primary?.drop();
    });

    it('the standby is up, and a write sent to it would fail loudly', async () => {
      expect(routed.reads!.standbys()).toEqual([expect.objectContaining({ state: 'up', lagMs: 0 })]);
      await expect(
        routed.reads!.onStandby({}, () => routed.db.execute(sql`update staff set min_cash_io = min_cash_io where false`)),
      ).rejects.toMatchObject({
        cause: { name: 'WriteOnStandbyError', cause: { code: '25006', message: expect.stringMatching(/read-only transaction/) } },
      });
    });

    it("is recognised whatever the standby session's TimeZone and DateStyle (the server's identity is not a timestamp's text)", async () => {
      const elsewhere = new URL(readOnly(primary.url!));
      elsewhere.searchParams.set('options', `${elsewhere.searchParams.get('options')} -c TimeZone=Pacific/Chatham -c DateStyle=German`);
      const handle = await openDatabase({ url: primary.url!, migrate: false, poolMax: 1, standbys: standbysAt([elsewhere.toString()]) });
      try {
        expect(handle.reads!.standbys()).toEqual([expect.objectContaining({ state: 'up', lagMs: 0 })]);
      } finally {
        await handle.close();
      }
    });

    it('a write routed to a standby is a bug: 500/090500, logged as an error; a read-only primary (a failover) stays 503/090503', async () => {
      const readOnlyPrimary = await openDatabase({ url: readOnly(primary.url!), migrate: false, poolMax: 1 });
      const lines: Array<{ level: number; msg: string; err?: { message?: string } }> = [];
      const app = Fastify({ logger: { level: 'info', stream: { write: (line: string) => void lines.push(JSON.parse(line)) } } });
      app.setValidatorCompiler(validatorCompiler);
      app.setSerializerCompiler(serializerCompiler);
      app.decorate('refuseUndeclaredErrorCodes', false);
      await app.register(errorHandlerPlugin);
      const write = sql`update staff set min_cash_io = min_cash_io where false`;
      const testEndpoint = (path: string) =>
        defineEndpoint({
          method: 'GET',
          path,
          agent: 'khzl',
          auth: false,
          payload: 'query',
          request: z.strictObject({}),
          response: z.object({}),
          summary: 'test',
          tag: 'test',
          errors: [],
        });
      routeEndpoint(app, testEndpoint('/api/test/write-on-standby'), async () => {
        await routed.reads!.onStandby({}, () => routed.db.execute(write));
        return {};
      });
      routeEndpoint(app, testEndpoint('/api/test/write-on-read-only-primary'), async () => {
        await readOnlyPrimary.db.execute(write);
        return {};
      });
      await app.ready();
      try {
        const headers = { [HEADER_CORP]: 'fxhl', [HEADER_AGENT]: 'khzl' };
        const onStandby = await app.inject({ method: 'GET', url: '/api/test/write-on-standby', headers });
        expect(onStandby.statusCode).toBe(500);
        expect(onStandby.json()).toMatchObject({ code: ErrorCode.INTERNAL });
        expect(onStandby.headers['retry-after']).toBeUndefined();
        expect(lines.filter((line) => line.level >= 50).map((line) => line.err?.message)).toEqual([
          expect.stringMatching(/standby.*read-only transaction/s),
        ]);

        // Inside a transaction on the standby too (none of the listed reads opens one today).
        await expect(routed.reads!.onStandby({}, () => routed.db.transaction((tx) => tx.execute(write)))).rejects.toMatchObject({
          cause: { name: 'WriteOnStandbyError' },
        });

        const onPrimary = await app.inject({ method: 'GET', url: '/api/test/write-on-read-only-primary', headers });
        expect(onPrimary.statusCode).toBe(503);
        expect(onPrimary.json()).toMatchObject({ code: ErrorCode.UNAVAILABLE });
        expect(lines.filter((line) => line.level >= 50)).toHaveLength(1);
      } finally {
        await app.close();
        await readOnlyPrimary.close();
      }
    });

    const listed = endpointEntries().filter(([, endpoint]) => STANDBY_READS.has(endpoint));
    const unlisted = endpointEntries().filter(([, endpoint]) => !STANDBY_READS.has(endpoint));

    it('lists only authenticated endpoints, and a good share of the reads', () => {
      expect(listed.every(([, endpoint]) => endpoint.auth)).toBe(true);
      expect(listed.length).toBeGreaterThanOrEqual(20);
    });

    for (const [name, endpoint] of listed) {
      it(`${name}: answered from the standby, writing nothing`, async () => {
        const before = standbyReads();
        const answer = await chan.call(endpoint, await validInputs[name](fixture));
        expect(answer.body.code, `${name}: ${answer.text}`).toBe(ErrorCode.OK);
        expect(standbyReads(), `${name} ran no statement on the standby`).toBeGreaterThan(before);
        expect(answer.headers.getSetCookie(), `${name} asked for read-your-writes`).toEqual([]);
      });
    }

    for (const [name, endpoint] of unlisted) {
      it(`${name}: not listed, still answered, on the primary`, async () => {
        const caller = await sweepCaller(server.baseUrl, name, chanSignedIn);
        const client = apiClient(server.baseUrl, { token: caller.token, cookies: caller.jar });
        const before = standbyReads();
        const answer = await client.call(endpoint, await validInputs[name](fixture));
        // A real code needs WeCom's OAuth round trip: refused here, as every sweep expects.
        if (name !== 'loginQywx') expect(answer.body.code, `${name}: ${answer.text}`).toBe(ErrorCode.OK);
        expect(standbyReads(), name).toBe(before);
      });
    }

    it("a staff member's write hands back the primary's position; a read-only request does not", async () => {
      const customerId = fixture.ownCustomerIds[0]!;
      const write = await chan.updateProfile({ customerId, version: await fixture.versionOf(customerId), remark: 'read your writes' });
      expect(write.body.code).toBe(ErrorCode.OK);
      const [cookie] = write.headers.getSetCookie();
      expect(cookie).toMatch(readAfterCookie);
      const [position] = await primary.query<{ behind: boolean }>('select $1::pg_lsn <= pg_current_wal_insert_lsn() as behind', [
        readAfterCookie.exec(cookie!)![1],
      ]);
      expect(position!.behind).toBe(true);
      // Not listed, but only reads: nothing to wait for.
      expect((await chan.getMinCashIO({})).headers.getSetCookie()).toEqual([]);
      expect((await chan.getShortcuts({})).headers.getSetCookie()).toEqual([]);

      // The browser sends it back; the standby has replayed it (it is the primary), so it answers, with the write.
      const before = standbyReads();
      const read = await chan.ok.getBaseInfo({ customerId });
      expect(read.remark).toBe('read your writes');
      expect(standbyReads()).toBeGreaterThan(before);
    });

    it("the position handed back covers the write's commit record even with synchronous_commit = off (the insert position, not the write position)", async () => {
      const asynchronous = new URL(primary.url!);
      asynchronous.searchParams.set('options', '-c synchronous_commit=off');
      const handle = await openDatabase({
        url: asynchronous.toString(),
        migrate: false,
        poolMax: 1,
        standbys: standbysAt([readOnly(primary.url!)]),
      });
      try {
        for (let round = 0; round < 5; round += 1) {
          let committedTo = 0n;
          let handedBack = 0n;
          await handle.reads!.onPrimaryNoting(
            async () => {
              await handle.db.transaction((tx) =>
                tx.execute(sql`update staff set min_cash_io = min_cash_io where id = ${fixture.staffIds.chanwaiman!}`),
              );
              // Read at once after the commit: its record ends at or before this position.
              const [row] = await handle.query<{ lsn: string }>('select pg_current_wal_insert_lsn()::text as lsn');
              committedTo = parseLsn(row!.lsn)!;
            },
            (lsn) => void (handedBack = lsn),
          );
          expect(handedBack >= committedTo, `round ${round}: ${formatLsn(handedBack)} < ${formatLsn(committedTo)}`).toBe(true);
        }
      } finally {
        await handle.close();
      }
    });

    it('a forged position beyond any the primary has reached is ignored: the standby answers, without the wait', async () => {
      const customerId = fixture.ownCustomerIds[0]!;
      for (const forged of ['FFFFFFFF/FFFFFFFF', 'FFFF/0']) {
        chanSignedIn.jar.set('broker_read_after', forged);
        const before = standbyReads();
        const started = Date.now();
        const answers = await Promise.all(Array.from({ length: 10 }, () => chan.getBaseInfo({ customerId })));
        expect(answers.map((answer) => answer.body.code)).toEqual(answers.map(() => ErrorCode.OK));
        expect(standbyReads(), forged).toBeGreaterThanOrEqual(before + 10);
        // One look at the primary settles them all, well within the standby read wait.
        expect(Date.now() - started).toBeLessThan(WAIT_MS + 1500);
      }
    });

    it('a cookie that is not a position is ignored: the standby answers at once', async () => {
      for (const forged of ['not-an-lsn', '0/0; Path=/', `${'F'.repeat(300)}/0`, '-1/0', '0/0']) {
        chanSignedIn.jar.set('broker_read_after', forged);
        const before = standbyReads();
        const answer = await chan.getBaseInfo({ customerId: fixture.ownCustomerIds[0]! });
        expect(answer.body.code, forged).toBe(ErrorCode.OK);
        expect(standbyReads(), forged).toBeGreaterThan(before);
      }
    });

    it('/readyz reports the standby beside the database, numbered, not named', async () => {
      const ready = (await server.app.inject({ url: '/readyz', headers: healthDetailHeaders })).json<{
        status: string;
        standbys: unknown[];
      }>();
      expect(ready.status).toBe('ready');
      expect(ready.standbys).toEqual([{ standby: 1, state: 'up', lagMs: 0, reads: routed.reads!.standbys()[0]!.reads }]);
    });

    describe('a standby that fails', () => {
      const apps: { server: RunningTestApp; database: DatabaseHandle }[] = [];
      afterAll(async () => {
        for (const { server: each, database } of apps) {
          await each.close();
          await database.close();
        }
      });
      const appOn = async (standbys: StandbyOptions) => {
        const database = await openDatabase({ url: primary.url!, migrate: false, poolMax: 4, standbys });
        const started = await startTestApp(database, { SEARCH_INDEX_MAX_ROWS: '0' });
        apps.push({ server: started, database });
        const signedIn = await signInAs(started.baseUrl, 'chanwaiman');
        return { database, client: apiClient(started.baseUrl, { token: signedIn.token, cookies: signedIn.jar }) };
      };

      it('refusing connections from the start: marked down, and reads answer from the primary', async () => {
        const { database, client } = await appOn(standbysAt(['postgres://root@127.0.0.1:1/nowhere']));
        expect(database.reads!.standbys()).toEqual([{ name: '127.0.0.1:1/nowhere', state: 'down', lagMs: null, reads: 0 }]);
        expect((await client.getBaseInfo({ customerId: fixture.ownCustomerIds[0]! })).body.code).toBe(ErrorCode.OK);
        expect((await client.searchCustomers({})).body.code).toBe(ErrorCode.OK);
        expect(database.reads!.standbys()[0]).toMatchObject({ state: 'down', reads: 0 });
      });

      it('gone mid-way (the monitor not yet aware): the request answers from the primary, and the standby is marked down', async () => {
        const proxy = await tcpProxy(new URL(primary.url!));
        const through = new URL(readOnly(primary.url!));
        through.port = String(proxy.port);
        // The monitor looks once, at start, and not again during the test: only the request can find the standby gone.
        const { database, client } = await appOn(standbysAt([through.toString()], { monitorIntervalMs: 600_000 }));
        const customerId = fixture.ownCustomerIds[0]!;
        expect(database.reads!.standbys()[0]!.state).toBe('up');
        expect((await client.getBaseInfo({ customerId })).body.code).toBe(ErrorCode.OK);
        const served = database.reads!.standbys()[0]!.reads;
        expect(served).toBeGreaterThan(0);

        await proxy.stop();
        const answer = await client.getBaseInfo({ customerId });
        expect(answer.body.code, answer.text).toBe(ErrorCode.OK);
        expect(database.reads!.standbys()[0]).toMatchObject({ state: 'down', reads: served + 1 });
        // Down: the next reads do not try it.
        expect((await client.getTrade({ customerId })).body.code).toBe(ErrorCode.OK);
        expect(database.reads!.standbys()[0]!.reads).toBe(served + 1);
        await proxy.restart();
        await proxy.stop();
      });

      it('frozen mid-way (answers nothing, closes nothing): the statement is given up and repeated on the primary, the standby marked down', async () => {
        const proxy = await tcpProxy(new URL(primary.url!));
        const through = new URL(readOnly(primary.url!));
        through.port = String(proxy.port);
        const { database, client } = await appOn(standbysAt([through.toString()], { monitorIntervalMs: 600_000, timeoutMs: 300 }));
        const customerId = fixture.ownCustomerIds[0]!;
        expect((await client.getBaseInfo({ customerId })).body.code).toBe(ErrorCode.OK);
        const served = database.reads!.standbys()[0]!.reads;
        expect(served).toBeGreaterThan(0);

        proxy.freeze();
        const started = Date.now();
        const answer = await Promise.race([client.getBaseInfo({ customerId }), sleep(15_000).then(() => 'still waiting after 15 s')]);
        expect(typeof answer === 'string' ? answer : answer.body.code).toBe(ErrorCode.OK);
        // 300 ms for the standby to cancel it itself, half a second more of silence, then the primary.
        expect(Date.now() - started).toBeLessThan(5000);
        expect(database.reads!.standbys()[0]).toMatchObject({ state: 'down', reads: served + 1 });
        proxy.thaw();
        await proxy.stop();
      });

      it('a statement longer than the standby timeout is cancelled by the standby and repeated on the primary; the standby stays up', async () => {
        const { database } = await appOn(standbysAt([readOnly(primary.url!)], { timeoutMs: 200 }));
        const rows = await database.reads!.onStandby({}, () => database.db.execute(sql`select pg_sleep(0.5), 'slept' as done`));
        expect((rows as { rows: { done: string }[] }).rows[0]!.done).toBe('slept');
        expect(database.reads!.standbys()[0]).toMatchObject({ state: 'up', reads: 1 });
      });

      it('the monitor marks a standby down when it stops answering, and up again when it answers', async () => {
        const proxy = await tcpProxy(new URL(primary.url!));
        const through = new URL(readOnly(primary.url!));
        through.port = String(proxy.port);
        const { database, client } = await appOn(standbysAt([through.toString()], { monitorIntervalMs: 50 }));
        const state = () => database.reads!.standbys()[0]!.state;
        const becomes = async (wanted: string) => {
          for (const deadline = Date.now() + 5000; state() !== wanted && Date.now() < deadline;) await sleep(20);
          expect(state()).toBe(wanted);
        };
        expect(state()).toBe('up');
        await proxy.stop();
        await becomes('down');
        // Reads answer meanwhile, from the primary.
        expect((await client.getBaseInfo({ customerId: fixture.ownCustomerIds[0]! })).body.code).toBe(ErrorCode.OK);
        await proxy.restart();
        await becomes('up');
        const before = database.reads!.standbys()[0]!.reads;
        expect((await client.getBaseInfo({ customerId: fixture.ownCustomerIds[0]! })).body.code).toBe(ErrorCode.OK);
        expect(database.reads!.standbys()[0]!.reads).toBeGreaterThan(before);
        await proxy.stop();
      });
    });

    it("a member's write is awaited by their reads in another browser, through another API process (announced by NOTIFY)", async () => {
      // B: another API process on the same database, which looks at its standby once, at start, so that
      // it takes the standby for one that has not replayed anything written since; it never waits.
      const other = await openDatabase({
        url: primary.url!,
        migrate: false,
        poolMax: 4,
        standbys: standbysAt([readOnly(primary.url!)], { monitorIntervalMs: 600_000, waitMs: 0 }),
      });
      const b = await startTestApp(other, { SEARCH_INDEX_MAX_ROWS: '0' });
      try {
        const onB = async (userid: string) => {
          const signedIn = await signInAs(b.baseUrl, userid);
          return apiClient(b.baseUrl, { token: signedIn.token, cookies: signedIn.jar });
        };
        // The same member on their phone: their own session, their own cookies, on B.
        const phone = await onB('chanwaiman');
        const lee = await onB('leekaying');
        const readsOnB = () => other.reads!.standbys()[0]!.reads;
        const customerId = fixture.ownCustomerIds[1]!;
        let before = readsOnB();
        expect((await phone.getBaseInfo({ customerId })).body.code).toBe(ErrorCode.OK);
        expect(readsOnB(), 'before the write, B reads the standby').toBeGreaterThan(before);

        // The write, in the desktop browser, through A.
        const remark = `written on the desktop ${Date.now()}`;
        const write = await chan.updateProfile({ customerId, version: await fixture.versionOf(customerId), remark });
        expect(write.body.code).toBe(ErrorCode.OK);
        // A notification crosses in milliseconds; a person takes longer to pick up the phone.
        await sleep(300);

        before = readsOnB();
        const read = await phone.getBaseInfo({ customerId });
        expect(read.body.code).toBe(ErrorCode.OK);
        expect((read.body as { data: { remark: string } }).data.remark).toBe(remark);
        expect(readsOnB(), 'B sent the member’s read to a standby it believes behind their write').toBe(before);
        // Another member's reads are not held back by it.
        before = readsOnB();
        expect((await lee.getBaseInfo({ customerId: fixture.foreignCustomerId })).body.code).toBe(ErrorCode.OK);
        expect(readsOnB()).toBeGreaterThan(before);
      } finally {
        await b.close();
        await other.close();
      }
    });

    it('session revocation still ends access to listed reads (sessions are checked on the primary, NOTIFY from it)', async () => {
      const signedIn = await signInAs(server.baseUrl, 'wongchishing');
      const wong = apiClient(server.baseUrl, { token: signedIn.token, cookies: signedIn.jar });
      expect((await wong.getTodoTaskCount({})).body.code).toBe(ErrorCode.OK);
      expect((await wong.signOutEverywhere({})).body.code).toBe(ErrorCode.OK);
      expect((await wong.getTodoTaskCount({})).body.code).toBe(ErrorCode.LOGIN_INVALID);
    });
  });
}

for (const engine of postgres) {
  describe(`reads on standbys after this process's migrations (${engine.kind})`, () => {
    it("wait for a standby that has replayed the migrations' DDL: one last seen before them is not used", async () => {
      const fresh = await engine.create({ migrate: false });
      const proxy = await tcpProxy(new URL(fresh.url!));
      const through = new URL(readOnly(fresh.url!));
      through.port = String(proxy.port);
      // The monitor looks once, before the migrations run, and not again unless a read waits.
      const database = await openDatabase({
        url: fresh.url!,
        migrate: true,
        poolMax: 2,
        standbys: standbysAt([through.toString()], { monitorIntervalMs: 600_000 }),
      });
      try {
        expect(database.reads!.standbys()[0]!.state).toBe('up');
        // The standby gone too: a read sent to it would fail there, then run on the primary.
        await proxy.stop();
        const rows = await database.reads!.onStandby({}, () => database.db.execute(sql`select count(*)::int as n from staff`));
        expect((rows as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
        expect(database.reads!.standbys()[0]!.reads).toBe(0);
      } finally {
        await database.close();
        await fresh.drop();
      }
    });
  });
}

/**
 * A TCP relay to PostgreSQL that can be cut and restored (a standby's network gone and back, as far as
 * this process can tell), or frozen: it keeps every connection open and forwards nothing either way,
 * as a stopped (SIGSTOP) standby or a network black hole does.
 */
async function tcpProxy(
  target: URL,
): Promise<{ port: number; stop(): Promise<void>; restart(): Promise<void>; freeze(): void; thaw(): void }> {
  const sockets = new Set<Socket>();
  let server: Server;
  let frozen = false;
  const forward = (from: Socket, to: Socket) =>
    from.on('data', (chunk) => {
      if (!frozen) to.write(chunk);
    });
  const listen = async (port: number) => {
    server = createServer((client) => {
      const upstream = connect(Number(target.port || 5432), target.hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => {
          sockets.delete(socket);
          (socket === client ? upstream : client).destroy();
        });
        socket.on('error', () => socket.destroy());
      }
      forward(client, upstream);
      forward(upstream, client);
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return (server.address() as { port: number }).port;
  };
  const port = await listen(0);
  return {
    port,
    stop: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    restart: async () => void (await listen(port)),
    freeze: () => void (frozen = true),
    thaw: () => void (frozen = false),
  };
}
