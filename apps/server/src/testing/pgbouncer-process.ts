import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './postgres-cluster';

/** Where PgBouncer sends its two databases: the primary's address (rewritten at failover). */
export interface PgbouncerTarget {
  host: string;
  port: number;
  dbname: string;
}

export interface PgbouncerProcess {
  port: number;
  /** The app's entry: transaction pooling, protocol-level prepared statements tracked. */
  url: string;
  /** Session pooling: migrations, session advisory locks, LISTEN. */
  directUrl: string;
  child: ChildProcess;
  output(): string;
  /** Rewrites the ini to point at another server and RELOADs: clients stay connected to PgBouncer. */
  repoint(target: PgbouncerTarget): Promise<void>;
  /** One admin console command (SHOW STATS, SHOW SERVERS…), its rows. */
  admin<Row = Record<string, unknown>>(command: string): Promise<Row[]>;
  stop(): Promise<void>;
}

export interface PgbouncerOptions {
  /** Named statements PgBouncer tracks per server connection (0: none, as before 1.21). */
  maxPreparedStatements?: number;
  /** More `[pgbouncer]` lines. */
  settings?: string[];
}

/**
 * PgBouncer in front of one PostgreSQL, as docs/deployment.md runs it: `broker` in transaction mode
 * for the app's statements (each connection SETs what the app would send as startup options, which
 * PgBouncer refuses) and `broker_direct` in session mode. Trust with an auth file; not daemonised,
 * so the child is ours to kill.
 */
export async function startPgbouncer(binary: string, dir: string, target: PgbouncerTarget, options: PgbouncerOptions = {}) {
  // The port was free when found; a test file running beside this one may bind it first: another, then.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startPgbouncerOn(await freePort(), binary, dir, target, options);
    } catch (error) {
      if (!(error instanceof PortTakenError) || attempt >= 5) throw error;
    }
  }
}

class PortTakenError extends Error {}

async function startPgbouncerOn(port: number, binary: string, dir: string, target: PgbouncerTarget, options: PgbouncerOptions) {
  const ini = join(dir, 'pgbouncer.ini');
  const userlist = join(dir, 'userlist.txt');
  writeFileSync(userlist, '"postgres" ""\n');
  const writeIni = (to: PgbouncerTarget) => {
    const server = `host=${to.host} port=${to.port} dbname=${to.dbname}`;
    writeFileSync(
      ini,
      [
        '[databases]',
        `broker = ${server} pool_mode=transaction connect_query='SET max_parallel_workers_per_gather = 0'`,
        `broker_direct = ${server} pool_mode=session`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${port}`,
        'unix_socket_dir =',
        'auth_type = trust',
        `auth_file = ${userlist}`,
        'admin_users = postgres',
        'pool_mode = transaction',
        // The app sends its settings as startup options on DATABASE_DIRECT_URL's pool (here broker_direct),
        // and on DATABASE_URL's without a direct URL; PgBouncer refuses any it does not track ("unsupported
        // startup parameter in options": the replicas did not start). Dropped instead: broker's connect_query
        // sets the one that matters for page statements.
        'ignore_startup_parameters = options',
        `max_prepared_statements = ${options.maxPreparedStatements ?? 200}`,
        'default_pool_size = 20',
        'max_client_conn = 500',
        // A dead server is retried quickly: failover should not wait on PgBouncer's back-off.
        'server_login_retry = 1',
        'server_connect_timeout = 3',
        ...(options.settings ?? []),
        '',
      ].join('\n'),
    );
  };
  writeIni(target);
  // PgBouncer refuses to run as root; -u drops to postgres after reading its files.
  const args = process.getuid?.() === 0 ? ['-u', 'postgres', ini] : [ini];
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  const take = (chunk: Buffer) => {
    text += chunk.toString();
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  const exited = once(child, 'exit').then(() => undefined);

  const admin = async <Row>(command: string) => {
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'pgbouncer' });
    await client.connect();
    try {
      return (await client.query(command)).rows as Row[];
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  // Up once its admin console answers (bounded: a wrong binary or ini exits or never listens).
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) {
      const message = `pgbouncer exited (${child.exitCode}):\n${text}`;
      throw /Address already in use/.test(text) ? new PortTakenError(message) : new Error(message);
    }
    try {
      await admin('SHOW VERSION');
      break;
    } catch (error) {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`pgbouncer did not answer within 15 s (${(error as Error).message}):\n${text}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const process_: PgbouncerProcess = {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/broker`,
    directUrl: `postgres://postgres@127.0.0.1:${port}/broker_direct`,
    child,
    output: () => text,
    async repoint(to) {
      writeIni(to);
      await admin('RELOAD');
    },
    admin,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
  return process_;
}
