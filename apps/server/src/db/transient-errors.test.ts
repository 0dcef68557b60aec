import { once } from 'node:events';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@broker/contract';
import { testDatabases, startTestApp, signInAs, apiClient, type RunningTestApp, type SignedIn } from '../testing';
import { openDatabase, type DatabaseHandle } from './client';
import { transientDatabaseFailure } from './transient-errors';
import { WriteOnStandbyError } from './write-on-standby';

/** What node-postgres throws for a server error: an Error with the SQLSTATE in `code`. */
const sqlError = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('a passing database failure is told from a fault', () => {
  it('names failovers, restarts, lost connections and lost conflicts, even wrapped (Drizzle wraps driver errors)', () => {
    expect(transientDatabaseFailure(sqlError('57P01', 'terminating connection due to administrator command'))).toBe(
      'the database is restarting or failing over',
    );
    expect(transientDatabaseFailure(sqlError('25006', 'cannot execute UPDATE in a read-only transaction'))).toMatch(/read-only/);
    expect(transientDatabaseFailure(sqlError('40P01'))).toMatch(/deadlock/);
    expect(transientDatabaseFailure(sqlError('40001'))).toMatch(/serialization/);
    expect(transientDatabaseFailure(sqlError('ECONNREFUSED'))).toBe('the connection to the database was lost');
    // PgBouncer's own refusal while the primary it points at is gone (seen in the replication process test).
    expect(
      transientDatabaseFailure(sqlError('08P01', 'server login has been failing, cached error: connect failed (server_login_retry)')),
    ).toBe('the connection to the database was lost or refused');
    expect(transientDatabaseFailure(sqlError('57P05'))).toBe('the database is restarting or failing over');
    expect(transientDatabaseFailure(new Error('Connection terminated unexpectedly'))).toBe('the connection to the database was lost');
    expect(transientDatabaseFailure(new Error('Failed query: select 1', { cause: sqlError('57P03') }))).toMatch(
      /starting up or shutting down/,
    );
  });

  it('leaves a fault a fault: a broken constraint, a syntax error, a plain bug', () => {
    expect(transientDatabaseFailure(sqlError('23505', 'duplicate key value violates unique constraint'))).toBeNull();
    expect(transientDatabaseFailure(sqlError('42601', 'syntax error'))).toBeNull();
    expect(transientDatabaseFailure(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBeNull();
    expect(transientDatabaseFailure('57P01')).toBeNull();
    // A write a standby refused is a routing bug, though its cause is a read-only primary's code.
    const onStandby = new WriteOnStandbyError(sqlError('25006', 'cannot execute UPDATE in a read-only transaction'));
    expect(transientDatabaseFailure(new Error('Failed query: update …', { cause: onStandby }))).toBeNull();
  });
});

/** A TCP hop in front of PostgreSQL that the test can cut (as a failover or a network loss does) and mend. */
class CuttableLink {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;
  constructor(private readonly target: { host: string; port: number }) {}

  async open() {
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    server.listen(this.port, '127.0.0.1');
    await once(server, 'listening');
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  async cut() {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    server?.close();
    if (server) await once(server, 'close');
  }
}

for (const engine of testDatabases().filter((candidate) => candidate.kind === 'postgres')) {
  describe(`a database lost under the server is answered 090503 with Retry-After, and served again once it is back (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void>; url?: string };
    let linked: DatabaseHandle;
    let link: CuttableLink;
    let server: RunningTestApp;
    let chan: SignedIn;

    beforeAll(async () => {
      database = await engine.create();
      const url = new URL(database.url!);
      link = new CuttableLink({ host: url.hostname, port: Number(url.port || 5432) });
      await link.open();
      url.host = `127.0.0.1:${link.port}`;
      // Short waits: a connection attempt to the cut link is refused at once, but the pool must not wait long either.
      linked = await openDatabase({ url: url.toString(), poolMax: 4, poolWaitMs: 1000, migrate: false });
      server = await startTestApp(linked, {}, { tuning: { sessionCache: false } });
      chan = await signInAs(server.baseUrl, 'chanwaiman');
    });
    afterAll(async () => {
      await server?.close();
      await linked?.close();
      await link?.cut();
      await database?.drop();
    });

    it('answers 090503 with Retry-After while the link is cut, not 090500, and the same call succeeds once it is back', async () => {
      const client = apiClient(server.baseUrl, chan);
      expect((await client.getDefaultCcy()).body.code).toBe(ErrorCode.OK);

      await link.cut();
      const lost = await client.getDefaultCcy();
      expect(lost.status).toBe(503);
      expect(lost.body.code).toBe(ErrorCode.UNAVAILABLE);
      expect(lost.body.msg).toMatch(/^The database is briefly unavailable \(.+\); retry in 2 s$/);
      expect(lost.headers.get('retry-after')).toBe('2');

      await link.open();
      const back = await client.getDefaultCcy();
      expect(back.body.code).toBe(ErrorCode.OK);
    });
  });
}
