import { afterAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import pg from 'pg';
import type { z } from 'zod';
import {
  addContactRecord,
  ErrorCode,
  getBaseInfo,
  getChannel,
  handleEvent,
  listContactRecords,
  searchCustomers,
  signOutEverywhere,
  updateProfile,
  type Endpoint,
} from '@broker/contract';
import { hongKongDay } from '@broker/domain';
import { DEMO_STAFF } from '../db/seed/reference-data';
import { openDatabase } from '../db/client';
import { seedDemoData } from '../db/seed';
import { runMotRules } from '../modules/mot';
import { apiClient, type ApiClient } from '../testing/api-client';
import { BrowserJar } from '../testing/browser-jar';
import { healthDetailHeaders } from '../testing/health-detail';
import { signInAs } from '../testing/test-app';
import { hashSessionToken } from '../modules/auth/session-token';
import { MOT_SWEEP_LOCK_KEY } from '../modules/mot/mot-sweep';
import { startEmulatorProcess, startServerProcess, type EmulatorProcess, type ServerProcess } from '../testing/server-process';
import type { Tuning } from '../tuning';
import {
  clusterPrograms,
  initPrimary,
  initStandby,
  makeClusterDir,
  recordClusterProcess,
  removeClusterDir,
  sweepStaleClusterDirs,
  type PostgresNode,
} from '../testing/postgres-cluster';
import { startPgbouncer, type PgbouncerProcess } from '../testing/pgbouncer-process';
import { callEndpoint, postgresAdminUrl, sleep, staffWorkload, type CallOutcome } from './reliability-fixtures';

const programs = clusterPrograms();
const CLUSTER_DIR_PREFIX = 'broker-replication-';
if (programs.missing && !programs.required) console.info(`replication process test skipped: ${programs.missing}`);

/** Everything the test started, so that it all goes whatever happens (afterAll, a signal, or the process exiting). */
interface Started {
  dir?: string;
  nodes: PostgresNode[];
  bouncer?: PgbouncerProcess;
  emulator?: EmulatorProcess;
  /** Every API replica's process from its spawn on, so one still starting is stopped too. */
  replicaChildren: ChildProcess[];
  /** The replicas that came up. */
  servers: ServerProcess[];
}
const started: Started = { nodes: [], replicaChildren: [], servers: [] };

const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/** SIGKILL, and its exit. */
async function killChild(child: ChildProcess) {
  if (!running(child)) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

/** `work`, or a rejection naming `what` after `ms`. */
async function within<T>(what: string, work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: still stopping after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** Each step on its own and bounded: one that fails or hangs neither skips nor holds up the others. */
async function tearDown() {
  const steps: Array<[string, Promise<unknown>]> = [
    ...started.replicaChildren.map((child): [string, Promise<unknown>] => [`API replica ${child.pid}`, killChild(child)]),
    ['WeCom emulator', started.emulator?.stop() ?? Promise.resolve()],
    ['PgBouncer', started.bouncer?.stop() ?? Promise.resolve()],
    ...started.nodes.map((node): [string, Promise<unknown>] => [`PostgreSQL ${node.name}`, node.destroy()]),
  ];
  const outcomes = await Promise.allSettled(steps.map(([what, work]) => within(what, work, 20_000)));
  // Whatever did not stop in time goes the hard way, and the directory with it.
  tearDownNow();
  Object.assign(started, { dir: undefined, nodes: [], bouncer: undefined, emulator: undefined, replicaChildren: [], servers: [] });
  const failed = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [(outcome.reason as Error).message] : []));
  if (failed.length > 0) console.warn(`replication process test teardown: ${failed.join('; ')}`);
}

/**
 * A test process killed or exiting early must not leave a postmaster, a pooler or a replica behind.
 * Synchronous, for 'exit'; postmasters get SIGQUIT by their pid file (pg_ctl starts them in a session
 * of their own, so the signals a cancelled run's process group gets never reach them).
 */
function tearDownNow() {
  for (const child of [...started.replicaChildren, started.emulator?.child, started.bouncer?.child]) {
    if (child && running(child)) child.kill('SIGKILL');
  }
  for (const node of started.nodes) node.destroySync();
  try {
    if (started.dir) removeClusterDir(started.dir);
  } catch {
    // Left for the next run's sweep (sweepStaleClusterDirs): an 'exit' handler must not throw.
  }
}

/** SIGTERM or SIGINT (a cancelled run): tear down at once, then end as that signal would have. */
function tearDownOnSignal(signal: NodeJS.Signals) {
  tearDownNow();
  process.off('SIGTERM', tearDownOnSignal);
  process.off('SIGINT', tearDownOnSignal);
  process.kill(process.pid, signal);
}

const tail = (text: string, chars = 4000) => (text.length > chars ? `…${text.slice(-chars)}` : text);

/** The children's own logs: what a failed step needs to say why. */
function childLogs() {
  return [
    ...started.nodes.map((node) => [`PostgreSQL ${node.name}`, node.log()]),
    ['PgBouncer', started.bouncer?.output() ?? ''],
    ...started.servers.map((server, index) => [`API replica ${index}`, server.output()]),
  ]
    .map(([name, text]) => `----- ${name} -----\n${tail(text!)}`)
    .join('\n');
}

/** What a replica's /readyz says of its standbys (ADR 0052): state, and how many reads each served. */
async function standbysOf(server: ServerProcess) {
  const answer = (await (await fetch(`${server.baseUrl}/readyz`, { headers: healthDetailHeaders })).json()) as {
    standbys?: Array<{ state: string; reads: number }>;
  };
  return answer.standbys ?? [];
}

/**
 * What each of `servers` says of its standbys once every one is `up` on all of them: on a loaded machine
 * one probe that missed its second marks a standby down until the next, so a single look can miss it.
 */
const everyStandbyUp = (servers: ServerProcess[]) =>
  waitFor(
    'every standby up on every replica',
    async () => {
      const reports = await Promise.all(servers.map(standbysOf));
      return reports.every((report) => report.length > 0 && report.every(({ state }) => state === 'up')) ? reports : undefined;
    },
    10_000,
  );

/** The distinct errors the API replicas logged (what a failed call was, in the server's words). */
const loggedErrors = () =>
  new Set(
    started.servers.flatMap((server) =>
      server
        .logLines()
        .filter((line) => Number(line.level) >= 50)
        .map((line) => String((line.err as { message?: string } | undefined)?.message ?? line.msg).slice(0, 100)),
    ),
  );

/** Polls `check` until it returns a value (not undefined), or fails naming `what` after `timeoutMs`. */
async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (performance.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms${last ? ` (${(last as Error).message})` : ''}`);
    await sleep(25);
  }
}

/** One SQL statement on its own connection (the servers and PgBouncer's admin console are reached the same way). */
async function sql<Row = Record<string, unknown>>(url: string, text: string, params: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as Row[];
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The one row a statement answers. */
async function sqlRow<Row>(url: string, text: string, params: unknown[] = []): Promise<Row> {
  const [row] = await sql<Row>(url, text, params);
  if (!row) throw new Error(`no row from: ${text}`);
  return row;
}

const codeOf = (outcome: CallOutcome) => (outcome.kind === 'answer' ? outcome.code : `${outcome.kind}: ${outcome.problem}`);

/** A staff member's browser behind a balancer: one cookie jar, its calls spread over both replicas. */
interface Browser {
  userid: string;
  jar: BrowserJar;
  on: [ApiClient, ApiClient];
}

async function openBrowser(userid: string, signInAt: ServerProcess, replicas: ServerProcess[], wecomBaseUrl: string): Promise<Browser> {
  const jar = new BrowserJar();
  const { token } = await signInAs(signInAt.baseUrl, userid, { wecomBaseUrl, jar });
  // The jar itself, not a copy of its header: cookies set by one replica's answer go to the next call, on either.
  const [a, b] = replicas.map((replica) => apiClient(replica.baseUrl, { token, cookies: jar })) as [ApiClient, ApiClient];
  return { userid, jar, on: [a, b] };
}

/** Every write the servers acknowledged (200, code "0"), to be found again after the failover. */
interface Acknowledged {
  records: Map<number, { customerId: number; note: string }>;
  edits: Map<number, { version: number; remark: string }>;
  /** Edits sent and not answered: they may have committed (their answer lost in the crash). */
  inFlightEdits: Map<number, { version: number; remark: string }>;
  handled: Map<number, string>;
}

describe.skipIf(!postgresAdminUrl)('primary, two streaming standbys, PgBouncer and four API replicas (postgres)', () => {
  afterAll(async () => {
    try {
      await tearDown();
    } finally {
      // Only now: until the teardown is over, a process ending mid-way still cleans up.
      process.off('exit', tearDownNow);
      process.off('SIGTERM', tearDownOnSignal);
      process.off('SIGINT', tearDownOnSignal);
    }
  });

  it.skipIf(Boolean(programs.missing) && !programs.required)(
    'reads on the standbys, read-your-writes across replicas, session locks only where sessions are, the MOT sweep taking turns, prepared statements through PgBouncer, reads with standbys down, failover without an acknowledged write lost',
    { timeout: 240_000 },
    async () => {
      if (programs.missing) throw new Error(`CI=true: ${programs.missing}`);
      const { postgresBin, pgbouncer } = programs as { postgresBin: string; pgbouncer: string };
      process.once('exit', tearDownNow);
      process.on('SIGTERM', tearDownOnSignal);
      process.on('SIGINT', tearDownOnSignal);
      // A run killed before it could clean up left its directory, and maybe its postmasters, behind.
      const swept = await sweepStaleClusterDirs(CLUSTER_DIR_PREFIX);
      if (swept.length > 0) console.info(`removed what killed earlier runs left: ${swept.join(', ')}`);
      const timings: Array<[string, number]> = [];
      const step = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
        const begun = performance.now();
        try {
          const value = await work();
          timings.push([name, performance.now() - begun]);
          return value;
        } catch (error) {
          const done = timings.map(([what, ms]) => `${what} ${(ms / 1000).toFixed(1)} s`).join('; ');
          throw new Error(`step "${name}" failed: ${(error as Error).message}\n(steps done: ${done})\n${childLogs()}`, { cause: error });
        }
      };

      // Topology: primary ← two streaming standbys; PgBouncer (broker: transaction mode, broker_direct: session
      // mode) → primary; replicas A and B → PgBouncer for writes, both standbys directly for reads.
      const dir = makeClusterDir(CLUSTER_DIR_PREFIX);
      started.dir = dir;
      /** An API replica, known to the teardown (and to a later run's sweep) from its spawn on. */
      const startReplica = async (env: Record<string, string>, tuning: Partial<Tuning>) => {
        const server = await startServerProcess({
          env,
          tuning,
          onSpawn: (child) => {
            started.replicaChildren.push(child);
            recordClusterProcess(dir, child.pid);
          },
        });
        started.servers.push(server);
        return server;
      };
      const { primary, standby, standby2, bouncer } = await step('primary, two standbys and PgBouncer up', async () => {
        const primary = await initPrimary(postgresBin, dir);
        started.nodes.push(primary);
        await primary.start();
        await sql(primary.url('postgres'), 'create database broker');
        const standbys = await Promise.all(
          ['standby', 'standby2'].map(async (name) => {
            const node = await initStandby(postgresBin, dir, primary, name);
            started.nodes.push(node);
            await node.start();
            return node;
          }),
        );
        const bouncer = await startPgbouncer(pgbouncer, dir, { host: '127.0.0.1', port: primary.port, dbname: 'broker' });
        started.bouncer = bouncer;
        recordClusterProcess(dir, bouncer.child.pid);
        return { primary, standby: standbys[0]!, standby2: standbys[1]!, bouncer };
      });
      /** The standbys running (the second is stopped for good before the failover, which promotes the first). */
      let readable = [standby, standby2];

      const emulator = await startEmulatorProcess();
      started.emulator = emulator;
      recordClusterProcess(dir, emulator.child.pid);
      const wecomBaseUrl = emulator.wecomBaseUrl;
      const replicaEnv = {
        DATABASE_URL: bouncer.url,
        DATABASE_DIRECT_URL: bouncer.directUrl,
        DATABASE_READ_URL: `${standby.url('broker')},${standby2.url('broker')}`,
        // Generous: replay is paused on purpose below, and the standbys must still serve the others' reads.
        DATABASE_READ_MAX_LAG_MS: '30000',
        WECOM_API_BASE: wecomBaseUrl,
      };
      // Both look for the day's MOT batch every second, through broker_direct: they take turns (a step below).
      const replicaTuning = { standbyReadWaitMs: 500, motSweepIntervalMs: 1000 };
      const [a, b] = await step('two API replicas up (migrations through broker_direct)', async () => {
        // Each is known to the teardown from its spawn: if one fails to start, the other is stopped too.
        return Promise.all([startReplica(replicaEnv, replicaTuning), startReplica(replicaEnv, replicaTuning)]);
      });

      const today = hongKongDay();
      const workload = await step('demo data seeded on the primary', async () => {
        const seeding = await openDatabase({ url: primary.url('broker'), migrate: false, poolMax: 2 });
        try {
          await seedDemoData(seeding, { customers: 240, seed: 25, asOf: today });
          await runMotRules(seeding, { asOf: today });
          return await staffWorkload(seeding);
        } finally {
          await seeding.close();
        }
      });
      const replayedOnStandbys = () =>
        waitFor('the standbys to replay the primary', async () => {
          const { lsn } = await sqlRow<{ lsn: string }>(primary.url('broker'), 'select pg_current_wal_lsn()::text as lsn');
          for (const node of readable) {
            const { caughtUp } = await sqlRow<{ caughtUp: boolean }>(
              node.url('broker'),
              'select pg_last_wal_replay_lsn() >= $1::pg_lsn as "caughtUp"',
              [lsn],
            );
            if (!caughtUp) return undefined;
          }
          return true;
        });
      await replayedOnStandbys();

      // Two more replicas through the transaction-mode entry without DATABASE_DIRECT_URL, started now (the
      // migrations are done) so that they start while the others work, and ride through the failover too:
      // the session cache off, and on, whose LISTEN through the pooler hears
      // nothing. Each runs the search-terms fill (a transaction lock) and tries the MOT sweep every second
      // (a session lock, which it must not take: ADR 0052).
      const replicaWithoutSession = (sessionCache: boolean) => {
        const starting = startReplica(
          { DATABASE_URL: bouncer.url, WECOM_API_BASE: wecomBaseUrl },
          { sessionCache, motSweepIntervalMs: 1000 },
        );
        // Awaited by a later step; a failure to start fails that step, not the process.
        starting.catch(() => undefined);
        return starting;
      };
      const plainStarting = replicaWithoutSession(false);
      const cachedStarting = replicaWithoutSession(true);

      const staff = DEMO_STAFF.map((member) => member.userid).filter((userid) => workload.customers.get(userid)?.length);
      const browsers = await step('sign-in through the emulator', () =>
        Promise.all(staff.map((userid, index) => openBrowser(userid, index % 2 ? b : a, [a, b], wecomBaseUrl))),
      );

      /** PgBouncer's counters for the transaction-mode entry (1.21+: Parse and Bind counted). */
      const brokerStats = async () => {
        const rows = await bouncer.admin<{
          database: string;
          total_client_parse_count: string;
          total_server_parse_count: string;
          total_bind_count: string;
        }>('SHOW STATS');
        return rows.find((row) => row.database === 'broker')!;
      };

      const acknowledged: Acknowledged = { records: new Map(), edits: new Map(), inFlightEdits: new Map(), handled: new Map() };
      const failures: string[] = [];
      /** While the primary is down: the answers that were not "0", by code (or kind), expected then. */
      const failedDuringFailover = new Map<string, number>();
      let duringFailover = false;
      const call = async <E extends Endpoint>(api: ApiClient, endpoint: E, input: z.input<E['request']>) => {
        const outcome = await callEndpoint(api, endpoint, input);
        if (outcome.kind === 'answer' && outcome.code === ErrorCode.OK) return outcome.data;
        if (duringFailover) {
          const key = outcome.kind === 'answer' ? `${outcome.status} ${outcome.code}` : outcome.kind;
          failedDuringFailover.set(key, (failedDuringFailover.get(key) ?? 0) + 1);
        } else failures.push(`${endpoint.path} ${JSON.stringify(input).slice(0, 120)} → ${JSON.stringify(outcome).slice(0, 300)}`);
        return undefined;
      };
      /** One writer's turn: a profile edit, a contact record or a handled MOT event, through replica `serial % 2`. */
      const writeOnce = async (browser: Browser, customers: number[], events: number[], serial: number, tag: string) => {
        const api = browser.on[serial % 2]!;
        const customerId = customers[serial % customers.length]!;
        if (serial % 3 === 0) {
          const note = `${tag} ${randomUUID()}`;
          const record = (await call(api, addContactRecord, {
            customerId,
            channel: 'phone',
            purpose: 'service',
            note,
            requestId: randomUUID(),
          })) as { recordId: number } | undefined;
          if (record) acknowledged.records.set(record.recordId, { customerId, note });
        } else if (serial % 3 === 1 && events.length > 0) {
          const eventId = events.pop()!;
          const note = `${tag} event ${eventId}`;
          if (await call(api, handleEvent, { eventId, channel: 'wecom', note })) acknowledged.handled.set(eventId, note);
        } else {
          // The read goes to the other replica: the browser's cookie must make it see this writer's last edit.
          const current = (await call(browser.on[(serial + 1) % 2]!, getBaseInfo, { customerId })) as { version: number } | undefined;
          if (!current) return;
          const remark = `${tag} ${serial}`;
          acknowledged.inFlightEdits.set(customerId, { version: current.version + 1, remark });
          const saved = (await call(api, updateProfile, { customerId, version: current.version, remark })) as
            { version: number } | undefined;
          if (saved) {
            acknowledged.edits.set(customerId, { version: saved.version, remark });
            acknowledged.inFlightEdits.delete(customerId);
          }
        }
      };
      // Two writers per staff member, each on its own customers and events, so edits never race each other.
      const writers = browsers.flatMap((browser) =>
        [0, 1].map((slot) => ({
          browser,
          customers: (workload.customers.get(browser.userid) ?? []).filter((_, index) => index % 2 === slot),
          events: (workload.pendingEvents.get(browser.userid) ?? []).filter((_, index) => index % 2 === slot),
          slot,
        })),
      );
      /** The replicas' connections to the standbys whose last statement read clients: their own statistics, not ours. */
      const standbyClientReads = async () => {
        let reads = 0;
        for (const node of readable) {
          const { count } = await sqlRow<{ count: number }>(
            node.url('broker'),
            `select count(*)::int as count from pg_stat_activity
              where datname = 'broker' and backend_type = 'client backend' and pid <> pg_backend_pid() and query ilike '%customer%'`,
          );
          reads += count;
        }
        return reads;
      };
      /** Reads each replica counts for standby `index` (its number in DATABASE_READ_URL, from 0). */
      const readsOn = async (index: number) => (await Promise.all([a, b].map(standbysOf))).map((report) => report[index]?.reads ?? 0);

      await step('mixed reads and writes across both replicas', async () => {
        await Promise.all(
          writers.map(async ({ browser, customers, events, slot }) => {
            for (let serial = 0; serial < 8 && failures.length === 0; serial += 1) {
              await writeOnce(browser, customers, events, serial, `mixed ${browser.userid}/${slot}`);
              const reader = browser.on[(serial + slot) % 2]!;
              await call(reader, searchCustomers, { pageNum: 1, pageSize: 20 });
              await call(reader, listContactRecords, { customerId: customers[serial % customers.length]! });
            }
          }),
        );
        expect(failures).toEqual([]);
        // Every edit acknowledged is read back through either replica, by its writer's browser.
        for (const { browser, customers } of writers) {
          for (const customerId of customers) {
            const edit = acknowledged.edits.get(customerId);
            if (!edit) continue;
            for (const api of browser.on) expect(await call(api, getBaseInfo, { customerId })).toMatchObject({ remark: edit.remark });
          }
        }
        // The replicas' page reads went to the standbys: their own activity shows them, and each replica counts them.
        expect(await standbyClientReads()).toBeGreaterThan(0);
        const reports = await everyStandbyUp([a, b]);
        console.info(
          `reads served by the standbys: ${reports.map((report) => report.map((each) => each.reads).join(' + ')).join(' (A), ')} (B)`,
        );
        for (const report of reports) expect(report.reduce((sum, each) => sum + each.reads, 0)).toBeGreaterThan(0);
      });

      await step(
        "read-your-writes: written through A, read at once through B, in the writer's browser and in another of the same member's, with the standbys behind",
        async () => {
          const [writer] = browsers;
          const other = await openBrowser(writer!.userid, a, [a, b], wecomBaseUrl);
          const customerId = workload.customers.get(writer!.userid)![0]!;
          await replayedOnStandbys();
          // The standbys stop applying WAL: from now on only the primary has the write below.
          for (const node of readable) await sql(node.url('broker'), 'select pg_wal_replay_pause()');
          try {
            const current = (await call(writer!.on[0], getBaseInfo, { customerId })) as { version: number };
            const remark = `read-your-writes ${randomUUID()}`;
            const saved = (await call(writer!.on[0], updateProfile, { customerId, version: current.version, remark })) as {
              version: number;
            };
            expect(failures).toEqual([]);
            acknowledged.edits.set(customerId, { version: saved.version, remark });
            const written = performance.now();
            expect(await call(writer!.on[1], getBaseInfo, { customerId })).toMatchObject({ remark, version: saved.version });
            console.info(
              `read-your-writes: B answered the writer's read in ${Math.round(performance.now() - written)} ms with replay paused`,
            );
            // The same member in another browser (their phone: its own cookies, none of this write's) sees it
            // too: A announced the member's position, and B heard it (NOTIFY through broker_direct).
            expect(await call(other.on[1], getBaseInfo, { customerId })).toMatchObject({ remark, version: saved.version });
            // Another member's reads still come from a standby, as it stands (once B sees them up: a probe that
            // timed out under load sends reads to the primary for a moment).
            await everyStandbyUp([b]);
            const [, bystander] = browsers;
            const bystanderCustomer = workload.customers.get(bystander!.userid)![0]!;
            const standbyReadsOfB = async () => (await standbysOf(b)).reduce((sum, each) => sum + each.reads, 0);
            const before = await standbyReadsOfB();
            expect(await call(bystander!.on[1], getBaseInfo, { customerId: bystanderCustomer })).toBeDefined();
            expect(await standbyReadsOfB()).toBeGreaterThan(before);
          } finally {
            for (const node of readable) await sql(node.url('broker'), 'select pg_wal_replay_resume()');
          }
          await replayedOnStandbys();
          expect(await call(other.on[1], getBaseInfo, { customerId })).toMatchObject({
            remark: acknowledged.edits.get(customerId)!.remark,
          });
        },
      );

      /** Advisory locks held on a server, and by whom (a leaked one is held by an idle session, for ever). */
      const advisoryLocks = (url: string) =>
        sql<{ objid: number; state: string }>(
          url,
          "select l.objid::int as objid, a.state from pg_locks l join pg_stat_activity a on a.pid = l.pid where l.locktype = 'advisory'",
        );
      /** None held at some moment within 5 s: the fill's and a sweep's own locks come and go; a leaked lock stays. */
      const noAdvisoryLockOn = (url: string) =>
        waitFor(`no advisory lock held on ${url}`, async () => ((await advisoryLocks(url)).length === 0 ? true : undefined), 5_000).catch(
          async (error: unknown) => {
            throw new Error(`${(error as Error).message}: ${JSON.stringify(await advisoryLocks(url))}`, { cause: error });
          },
        );
      /** The log line a replica without a session of its own writes at start (app.ts). */
      const saidNoSession = (server: ServerProcess) =>
        server.logLines().some((line) => line.level === 40 && line.msg.startsWith('no session advisory locks in this process'));
      const sweptOnce = (server: ServerProcess) => server.logLines().some((line) => /^mot sweep: \d+ new events/.test(line.msg));

      await step('replicas without DATABASE_DIRECT_URL: no advisory lock left on the primary, no session served from memory', async () => {
        const [plain, cached] = await Promise.all([plainStarting, cachedStarting]);
        // Both have migrated, tried the MOT sweep at start and run the search-terms fill by now.
        await noAdvisoryLockOn(primary.url('broker'));
        await waitFor('both to say at start that they take no session lock', async () =>
          saidNoSession(plain) && saidNoSession(cached) ? true : undefined,
        );
        expect([plain, cached].map(sweptOnce)).toEqual([false, false]);
        expect(cached.logLines().filter((line) => line.level === 40 && line.msg.startsWith('session cache off')).length).toBeGreaterThan(0);
        // The session cache on through the transaction-mode entry: its LISTEN hears nothing, so it must not
        // cache. Revoked in the database (as by a sign-out on another replica): refused at once.
        const jar = new BrowserJar();
        const { token } = await signInAs(cached.baseUrl, browsers[0]!.userid, { wecomBaseUrl, jar });
        const api = apiClient(cached.baseUrl, { token, cookies: jar });
        for (let attempt = 0; attempt < 3; attempt += 1) expect(codeOf(await callEndpoint(api, getChannel, {}))).toBe(ErrorCode.OK);
        await sql(primary.url('broker'), 'update auth_session set revoked_at = now() where token_hash = $1', [hashSessionToken(token)]);
        expect(codeOf(await callEndpoint(api, getChannel, {}))).toBe(ErrorCode.LOGIN_INVALID);
      });

      await step('the MOT sweep through broker_direct: one replica runs the day while the other finds it busy, then lets go', async () => {
        const replicas = [a, b];
        const logFrom = replicas.map((server) => server.logLines().length);
        const sweepLines = (index: number) =>
          replicas[index]!.logLines()
            .slice(logFrom[index])
            .filter((line) => line.msg.startsWith('mot sweep'));
        const dayRun = async () =>
          (
            await sql<{ owner: string; finished: boolean }>(
              primary.url('broker'),
              'select owner, finished_at is not null as finished from mot_sweep_run where run_date = $1',
              [today],
            )
          )[0];
        // The sweep's first housekeeping (the month partitions) waits for this lock: whichever replica takes
        // the day holds the sweep's lock for as long as the test holds this one, and the other's ticks meet it.
        const partitionsLock = new pg.Client({ connectionString: primary.url('broker') });
        await partitionsLock.connect();
        let runner: number;
        try {
          await partitionsLock.query("select pg_advisory_lock(hashtext('broker_ensure_month_partitions'))");
          // Both replicas have found the day done since their start; now it is not.
          await sql(primary.url('broker'), 'delete from mot_sweep_run where run_date = $1', [today]);
          runner = await waitFor('one replica to take the day and the other to find it busy', async () => {
            const run = await dayRun();
            const index = [a, b].findIndex((server) => run?.owner.endsWith(`:${server.child.pid}`));
            return index >= 0 && sweepLines(1 - index).some((line) => line.outcome === 'busy') ? index : undefined;
          });
          expect((await advisoryLocks(primary.url('broker'))).map((lock) => lock.objid)).toContain(MOT_SWEEP_LOCK_KEY);
        } finally {
          await partitionsLock.end();
        }
        await waitFor('the day to be done', async () => ((await dayRun())?.finished ? true : undefined));
        const ran = [0, 1].map((index) => sweepLines(index).filter((line) => /^mot sweep: \d+ new events/.test(line.msg)).length);
        expect(ran).toEqual(runner === 0 ? [1, 0] : [0, 1]);
        // And the lock went with the run: the next ticks take it and let it go again.
        await noAdvisoryLockOn(primary.url('broker'));
      });

      await step('prepared statements through PgBouncer (transaction mode)', async () => {
        const broker = await brokerStats();
        console.info(
          `PgBouncer broker: ${broker.total_client_parse_count} Parse from clients, ${broker.total_server_parse_count} to servers, ${broker.total_bind_count} Bind`,
        );
        // Named statements came through (the session lookup, the MOT page), were prepared on the servers
        // under PgBouncer's own names and executed again without a new Parse.
        expect(Number(broker.total_client_parse_count)).toBeGreaterThan(0);
        expect(Number(broker.total_server_parse_count)).toBeGreaterThan(0);
        expect(Number(broker.total_bind_count)).toBeGreaterThan(Number(broker.total_client_parse_count));
      });

      /** Page reads of every writer through both replicas, each answered. */
      const readEverywhere = async () => {
        for (const { browser, customers } of writers) {
          for (const [index, api] of browser.on.entries()) {
            expect(codeOf(await callEndpoint(api, searchCustomers, { pageNum: 1, pageSize: 20 }))).toBe(ErrorCode.OK);
            expect(codeOf(await callEndpoint(api, getBaseInfo, { customerId: customers[index]! }))).toBe(ErrorCode.OK);
            expect(codeOf(await callEndpoint(api, listContactRecords, { customerId: customers[index]! }))).toBe(ErrorCode.OK);
          }
        }
      };
      /** Until both replicas see standby `index` in `state`. */
      const bothSee = (index: number, state: string) =>
        waitFor(`both replicas to see standby ${index} ${state}`, async () =>
          (await Promise.all([a, b].map(standbysOf))).every((report) => report[index]?.state === state) ? true : undefined,
        );

      await step('standbys stopped one by one: reads stay on the other, then go to the primary', async () => {
        await standby2.stop('fast');
        readable = [standby];
        await readEverywhere();
        await bothSee(1, 'down');
        // Once both replicas know, every listed read goes to the standby left.
        const before = await readsOn(0);
        await readEverywhere();
        const after = await readsOn(0);
        console.info(
          `with the second standby down, the first served ${after.map((count, i) => count - before[i]!).join(' (A), ')} (B) reads`,
        );
        for (const [i, count] of after.entries()) expect(count).toBeGreaterThan(before[i]!);
        // The second stays down from here: the failover below promotes the first.
        await standby.stop('fast');
        readable = [];
        await readEverywhere();
        await bothSee(0, 'down');
        await standby.start();
        readable = [standby];
        await bothSee(0, 'up');
        await waitFor('the standby streaming again', async () => {
          const rows = await sql<{ state: string }>(
            primary.url('broker'),
            'select state from pg_stat_replication where application_name = $1',
            [standby.name],
          );
          return rows[0]?.state === 'streaming' ? true : undefined;
        });
        await replayedOnStandbys();
      });

      await step('synchronous replication on', async () => {
        primary.configure({ synchronous_standby_names: standby.name, synchronous_commit: 'on' });
        await primary.reload();
        await waitFor('pg_stat_replication to say sync', async () => {
          const rows = await sql<{ sync: string }>(
            primary.url('broker'),
            'select sync_state as sync from pg_stat_replication where application_name = $1',
            [standby.name],
          );
          return rows[0]?.sync === 'sync' ? true : undefined;
        });
      });

      // Concurrent writes; the primary's postmaster is killed in the middle of them; the standby is
      // promoted and PgBouncer repointed at it. The replicas are not touched.
      const sessionsBefore = await Promise.all(browsers.map((browser) => callEndpoint(browser.on[0], getChannel, {})));
      expect(sessionsBefore.map(codeOf)).toEqual(browsers.map(() => ErrorCode.OK));
      let killedAt = 0;
      let firstWriteAfter = 0;
      const failover = await step('kill -9 the primary mid-write, promote the standby, repoint PgBouncer', async () => {
        let acknowledgedBefore = 0;
        let phase: 'before' | 'down' | 'after' = 'before';
        let afterFailover = 0;
        const burst = Promise.all(
          writers.map(async ({ browser, customers, events, slot }) => {
            // Until 20 writes after the failover, 30 s after the kill at most, or the first failure before it.
            const going = () =>
              afterFailover < 20 &&
              performance.now() - (killedAt || performance.now()) < 30_000 &&
              (duringFailover || failures.length === 0);
            for (let serial = 100; going(); serial += 1) {
              const writtenBefore = acknowledged.records.size + acknowledged.edits.size + acknowledged.handled.size;
              await writeOnce(browser, customers, events, serial, `failover ${browser.userid}/${slot}`);
              const wrote = acknowledged.records.size + acknowledged.edits.size + acknowledged.handled.size > writtenBefore;
              if (phase === 'before' && wrote) acknowledgedBefore += 1;
              if (phase === 'after' && wrote) {
                afterFailover += 1;
                firstWriteAfter ||= performance.now();
              }
              if (phase === 'down') await sleep(20);
            }
          }),
        );
        await waitFor('30 acknowledged writes before the kill', async () =>
          acknowledgedBefore >= 30 || failures.length ? true : undefined,
        );
        expect(failures).toEqual([]);
        duringFailover = true;
        phase = 'down';
        primary.killHard();
        killedAt = performance.now();
        await standby.promote();
        const promotedAt = performance.now();
        await bouncer.repoint({ host: '127.0.0.1', port: standby.port, dbname: 'broker' });
        const repointedAt = performance.now();
        phase = 'after';
        await burst;
        duringFailover = false;
        // The replicas were not restarted, and none died on the way.
        expect(started.servers.map((server) => server.child.exitCode ?? server.child.signalCode)).toEqual(started.servers.map(() => null));
        return { acknowledgedBefore, promoteMs: promotedAt - killedAt, repointMs: repointedAt - promotedAt };
      });
      console.info(
        `failover: ${failover.acknowledgedBefore} writes acknowledged before the kill; promote ${Math.round(failover.promoteMs)} ms, ` +
          `PgBouncer repointed ${Math.round(failover.repointMs)} ms later; first write acknowledged ${Math.round(firstWriteAfter - killedAt)} ms after the kill; ` +
          `meanwhile ${JSON.stringify(Object.fromEntries(failedDuringFailover))} (HTTP status and code of the calls that failed), ` +
          `the replicas logging ${JSON.stringify([...loggedErrors()])}`,
      );
      expect(firstWriteAfter).toBeGreaterThan(0);
      // A call that met the failover was told to come back (503, 090503, Retry-After), never "quote this request id".
      expect([...failedDuringFailover.keys()].filter((key) => key !== `503 ${ErrorCode.UNAVAILABLE}`)).toEqual([]);

      await step('every acknowledged write is on the new primary', async () => {
        const newPrimary = standby.url('broker');
        const records = await sql<{ id: number; customerId: number; note: string }>(
          newPrimary,
          'select id::int as id, customer_id::int as "customerId", note from contact_record where id = any($1::bigint[])',
          [[...acknowledged.records.keys()]],
        );
        expect(new Map(records.map((record) => [record.id, { customerId: record.customerId, note: record.note }]))).toEqual(
          acknowledged.records,
        );
        const profiles = await sql<{ id: number; version: number; remark: string }>(
          newPrimary,
          'select id::int as id, version, remark from customer where id = any($1::bigint[])',
          [[...acknowledged.edits.keys()]],
        );
        expect(profiles).toHaveLength(acknowledged.edits.size);
        for (const profile of profiles) {
          const edit = acknowledged.edits.get(profile.id)!;
          const unanswered = acknowledged.inFlightEdits.get(profile.id);
          const expected = unanswered && profile.version === unanswered.version ? unanswered : edit;
          expect({ id: profile.id, version: profile.version, remark: profile.remark }).toEqual({ id: profile.id, ...expected });
        }
        const handled = await sql<{ id: number; status: string }>(
          newPrimary,
          'select id::int as id, status from mot_event where id = any($1::bigint[])',
          [[...acknowledged.handled.keys()]],
        );
        expect(handled.filter((event) => event.status !== 'handled')).toEqual([]);
        expect(handled).toHaveLength(acknowledged.handled.size);
      });

      await step('session revocation reaches the other replica (NOTIFY from the new primary, via broker_direct)', async () => {
        // Both replicas listen again, on the promoted server (their LISTEN connection was lost with the old one).
        await waitFor(
          'both replicas listening on the new primary',
          async () => {
            const { listening } = await sqlRow<{ listening: number }>(
              standby.url('broker'),
              "select count(*)::int as listening from pg_stat_activity where query ilike 'listen %'",
            );
            return listening >= 2 ? true : undefined;
          },
          40_000,
        );
        const [browser] = browsers;
        // Cached by B first, so only the notification can end it there.
        expect(codeOf(await callEndpoint(browser!.on[1], getChannel, {}))).toBe(ErrorCode.OK);
        expect(codeOf(await callEndpoint(browser!.on[0], signOutEverywhere, {}))).toBe(ErrorCode.OK);
        const revokedAt = performance.now();
        await waitFor(
          'B to refuse the revoked token',
          async () => (codeOf(await callEndpoint(browser!.on[1], getChannel, {})) === ErrorCode.LOGIN_INVALID ? true : undefined),
          5_000,
        );
        console.info(`revocation on A refused by B after ${Math.round(performance.now() - revokedAt)} ms`);
      });

      // Every replica took and released its locks through the failover (fill, migrations), none is left held.
      await step('no advisory lock left held', () => noAdvisoryLockOn(standby.url('broker')));

      await step('a replica with the session cache off and no DATABASE_DIRECT_URL behind the pooler', async () => {
        const plain = await plainStarting;
        const userid = browsers[1]!.userid;
        const browser = await openBrowser(userid, plain, [plain, plain], wecomBaseUrl);
        const before = await brokerStats();
        for (let page = 1; page <= 3; page += 1)
          expect(codeOf(await callEndpoint(browser.on[0], searchCustomers, { pageNum: page, pageSize: 10 }))).toBe(ErrorCode.OK);
        // Its session is read on every request, a prepared statement executed through PgBouncer each time.
        const after = await brokerStats();
        expect(Number(after.total_bind_count) - Number(before.total_bind_count)).toBeGreaterThanOrEqual(3);
        const customerId = workload.customers.get(userid)![0]!;
        const current = (await call(browser.on[0], getBaseInfo, { customerId })) as { version: number };
        expect(await call(browser.on[0], updateProfile, { customerId, version: current.version, remark: 'no direct url' })).toMatchObject({
          remark: 'no direct url',
        });
        // Signed out through A: refused at once here, since this replica reads its session on every request.
        const elsewhere = await openBrowser(userid, a, [a, plain], wecomBaseUrl);
        expect(codeOf(await callEndpoint(elsewhere.on[1], getChannel, {}))).toBe(ErrorCode.OK);
        expect(codeOf(await callEndpoint(elsewhere.on[0], signOutEverywhere, {}))).toBe(ErrorCode.OK);
        expect(codeOf(await callEndpoint(elsewhere.on[1], getChannel, {}))).toBe(ErrorCode.LOGIN_INVALID);
        // A while later, on the promoted primary too: it never took a session lock, nor swept.
        await noAdvisoryLockOn(standby.url('broker'));
        expect(sweptOnce(plain)).toBe(false);
      });

      console.info(
        `replication process test, step timings:\n${timings.map(([name, ms]) => `  ${(ms / 1000).toFixed(1).padStart(5)} s  ${name}`).join('\n')}`,
      );
    },
  );
});
