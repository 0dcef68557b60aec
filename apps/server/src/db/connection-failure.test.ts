import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { testDatabaseUrlForTools } from '../testing/test-databases';
import { openDatabase } from './client';
import { DatabaseConnectionError, maskedDatabaseUrl } from './connection-failure';

const MAIN = fileURLToPath(new URL('../main.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../../../../node_modules/.bin/tsx', import.meta.url));
const adminUrl = testDatabaseUrlForTools();

/** A port on which nothing listens: bound, noted, released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

async function openingFails(url: string): Promise<DatabaseConnectionError> {
  const error = await openDatabase({ url, poolWaitMs: 2000 }).then(
    (handle) => handle.close().then(() => new Error('opened')),
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(DatabaseConnectionError);
  const failure = error as DatabaseConnectionError;
  expect(failure.message).not.toContain('\n');
  expect(failure.message).toContain('DATABASE_URL=');
  return failure;
}

const withPath = (url: string, change: (parsed: URL) => void) => {
  const parsed = new URL(url);
  change(parsed);
  return parsed.toString();
};

describe('a database that cannot be opened is named: DATABASE_URL and what to check', () => {
  test('the password never shows', () => {
    expect(maskedDatabaseUrl('postgres://broker:s3cret@db.internal:6432/broker')).toBe('postgres://broker:***@db.internal:6432/broker');
    expect(maskedDatabaseUrl('postgres://root@127.0.0.1:5432/test')).toBe('postgres://root@127.0.0.1:5432/test');
  });

  test('nothing listens on the port', async () => {
    const port = await closedPort();
    const failure = await openingFails(`postgres://broker:s3cret@127.0.0.1:${port}/broker`);
    expect(failure.code).toBe('ECONNREFUSED');
    expect(failure.message).toBe(
      `Cannot open the database at DATABASE_URL=postgres://broker:***@127.0.0.1:${port}/broker: nothing accepts connections at 127.0.0.1:${port} — check that PostgreSQL is running there and the host and port in DATABASE_URL`,
    );
  });

  test('the host is not known', async () => {
    const failure = await openingFails('postgres://root@no-such-host.invalid:5432/broker');
    expect(failure.message).toMatch(/: the host "no-such-host\.invalid" is not known — check the host name in DATABASE_URL$/);
  });

  describe.skipIf(!adminUrl)('against the real PostgreSQL (postgres; skipped without TEST_DATABASE_URL)', () => {
    test('a database that does not exist (postgres)', async () => {
      const url = withPath(adminUrl!, (parsed) => (parsed.pathname = '/broker_no_such_database'));
      const failure = await openingFails(url);
      expect(failure.code).toBe('3D000');
      expect(failure.message).toMatch(
        /: the database "broker_no_such_database" does not exist on [^ ]+ — create it \(createdb -h .+ broker_no_such_database\) or fix the database name in DATABASE_URL$/,
      );
    });

    test('a role that does not exist, with a password that stays hidden (postgres)', async () => {
      const url = withPath(adminUrl!, (parsed) => {
        parsed.username = 'broker_no_such_role';
        parsed.password = 'hunter2';
      });
      const failure = await openingFails(url);
      expect(['28000', '28P01']).toContain(failure.code);
      expect(failure.message).toMatch(/role "broker_no_such_role"|user "broker_no_such_role"/);
      expect(failure.message).toMatch(/fix the user name in DATABASE_URL|check the user and password in DATABASE_URL/);
      expect(failure.message).not.toContain('hunter2');
    });

    test('the server process says it in one line and exits 1 (postgres)', async () => {
      const url = withPath(adminUrl!, (parsed) => (parsed.pathname = '/broker_no_such_database'));
      const child = spawn(TSX, [MAIN], {
        env: { PATH: process.env.PATH, DATABASE_URL: url, SEED_DEMO: 'false', PORT: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const [code] = (await once(child, 'exit')) as [number];
      expect(code).toBe(1);
      const lines = output.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /DATABASE_URL=postgres:\/\/.+\/broker_no_such_database: the database "broker_no_such_database" does not exist/,
      );
    });
  });
});
