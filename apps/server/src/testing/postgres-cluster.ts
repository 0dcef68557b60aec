import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, appendFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Read once here, like TEST_DATABASE_URL in test-databases.ts: where CI put PostgreSQL's and PgBouncer's binaries. */
const postgresBinDirSetting = process.env.POSTGRES_BIN_DIR;
const pgbouncerBinSetting = process.env.PGBOUNCER_BIN;
const inCi = process.env.CI === 'true';
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** Debian's PostgreSQL programs (initdb, pg_ctl, pg_basebackup): POSTGRES_BIN_DIR, else the newest /usr/lib/postgresql/<version>/bin. */
export function findPostgresBinDir(): string | undefined {
  if (postgresBinDirSetting) return existsSync(join(postgresBinDirSetting, 'initdb')) ? postgresBinDirSetting : undefined;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((version) => /^\d+$/.test(version)) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a)).find((version) => existsSync(join(root, version, 'bin', 'initdb')));
  return newest ? join(root, newest, 'bin') : undefined;
}

/** PgBouncer 1.21+ : PGBOUNCER_BIN, else the one `.ci/pgbouncer.sh` built into the repo's `.cache/pgbouncer/<version>/`. */
export function findPgbouncer(): string | undefined {
  if (pgbouncerBinSetting) return existsSync(pgbouncerBinSetting) ? pgbouncerBinSetting : undefined;
  const cache = join(REPO_ROOT, '.cache', 'pgbouncer');
  const built = existsSync(cache) ? readdirSync(cache).sort().reverse() : [];
  return built.map((version) => join(cache, version, 'bin', 'pgbouncer')).find((path) => existsSync(path));
}

export interface ClusterPrograms {
  postgresBin?: string;
  pgbouncer?: string;
  /** What is missing and how to get it; undefined when both were found. */
  missing?: string;
  /** CI=true: a missing program fails the test instead of skipping it. */
  required: boolean;
}

/** The programs a process test of replication needs, found once. */
export function clusterPrograms(): ClusterPrograms {
  const postgresBin = findPostgresBinDir();
  const pgbouncer = findPgbouncer();
  const missing = [
    ...(postgresBin ? [] : ['PostgreSQL server binaries (apt-get install postgresql, or set POSTGRES_BIN_DIR)']),
    ...(pgbouncer ? [] : ['PgBouncer 1.21+ (run .ci/pgbouncer.sh, or set PGBOUNCER_BIN)']),
  ];
  return {
    ...(postgresBin ? { postgresBin } : {}),
    ...(pgbouncer ? { pgbouncer } : {}),
    ...(missing.length > 0 ? { missing: `missing ${missing.join(' and ')}` } : {}),
    required: inCi,
  };
}

/**
 * A TCP port nobody listens on right now (the kernel's pick). Only a guess by the time it is used: a
 * test file running beside this one may take it first, so whoever binds it retries on EADDRINUSE
 * (`PostgresNode.start`, `startPgbouncer`).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** PostgreSQL refuses to run as root: CI runs as root, so its programs run as the `postgres` user there. */
const asRoot = process.getuid?.() === 0;
const postgresUser = () => {
  if (!asRoot) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
};

/** Runs one of PostgreSQL's programs to its end (as `postgres` when this process is root). */
export async function runAsPostgres(program: string, args: string[], options: { timeoutMs?: number } = {}) {
  const [command, commandArgs] = asRoot ? ['runuser', ['-u', 'postgres', '--', program, ...args]] : [program, args];
  try {
    return await run(command, commandArgs, { timeout: options.timeoutMs ?? 60_000, encoding: 'utf8' });
  } catch (error) {
    const failed = error as Error & { stdout?: string; stderr?: string };
    throw new Error(`${program} ${args.join(' ')} failed: ${failed.message}\n${failed.stdout ?? ''}${failed.stderr ?? ''}`);
  }
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** When a process started (clock ticks since boot, /proc/<pid>/stat field 22): with the pid, who it is. */
function startTimeOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[19];
  } catch {
    return undefined;
  }
}

/** `pid start-time` of a process, as the owner file keeps it. */
const processMark = (pid: number) => `${pid} ${startTimeOf(pid) ?? '?'}`;

/** Whether the process a mark names still runs (not merely another process given its pid since). */
function markAlive(mark: string | undefined): boolean {
  const [pid, startTime] = (mark ?? '').split(' ');
  return Number(pid) > 0 && isAlive(Number(pid)) && startTimeOf(Number(pid)) === startTime;
}

/** The file naming the test process that made a cluster directory, then every process it started there. */
const OWNER_FILE = 'owner';

/** A temporary directory the postgres user owns (it keeps data directories, sockets and logs), marked as this process's. */
export function makeClusterDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(join(dir, OWNER_FILE), `${processMark(process.pid)}\n`);
  const owner = postgresUser();
  if (owner) chownSync(dir, owner.uid, owner.gid);
  return dir;
}

/** Records a process started for the cluster in `dir` (a replica, PgBouncer), so a later run can stop it if this one is killed. */
export function recordClusterProcess(dir: string, pid: number | undefined) {
  if (pid) appendFileSync(join(dir, OWNER_FILE), `${processMark(pid)}\n`);
}

/** Older than any run (the test's own timeout is 4 minutes): a directory from before owner files, or one whose file was lost. */
const UNOWNED_STALE_MS = 15 * 60_000;

/**
 * Removes the cluster directories `prefix`* in the temporary directory that a killed earlier run left
 * behind, stopping what still runs there: its postmasters (by postmaster.pid: pg_ctl starts them in a
 * session of their own, out of reach of the signals a dying test's process group gets) and the
 * processes it recorded. Stale means its owner is gone; a directory without an owner file, only when
 * older than any run. A run in progress elsewhere (another worktree) is left alone. Returns what it removed.
 */
export async function sweepStaleClusterDirs(prefix: string): Promise<string[]> {
  const removed: string[] = [];
  for (const name of readdirSync(tmpdir()).filter((entry) => entry.startsWith(prefix))) {
    const dir = join(tmpdir(), name);
    let marks: string[] | undefined;
    try {
      marks = readFileSync(join(dir, OWNER_FILE), 'utf8').split('\n').filter(Boolean);
    } catch {
      marks = undefined;
    }
    let ageMs: number;
    try {
      ageMs = Date.now() - statSync(dir).mtimeMs;
    } catch {
      continue;
    }
    const stale = marks ? !markAlive(marks[0]) : ageMs > UNOWNED_STALE_MS;
    if (!stale) continue;
    for (const mark of marks?.slice(1) ?? []) if (markAlive(mark)) process.kill(Number(mark.split(' ')[0]), 'SIGKILL');
    for (const entry of readdirSync(dir)) await stopStalePostmaster(join(dir, entry));
    removeClusterDir(dir);
    removed.push(dir);
  }
  return removed;
}

/** Immediate shutdown of the postmaster of `dataDir` if one still runs there, then its shared memory. */
async function stopStalePostmaster(dataDir: string) {
  let lines: string[];
  try {
    lines = readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return;
  }
  const pid = Number(lines[0]);
  const ours = () => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dataDir);
    } catch {
      return false;
    }
  };
  if (pid > 0 && ours()) {
    process.kill(pid, 'SIGQUIT');
    for (let waited = 0; waited < 5000 && ours(); waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    if (ours()) process.kill(pid, 'SIGKILL');
  }
  const shmId = lines[6]?.trim().split(/\s+/)[1];
  if (shmId) await run('ipcrm', ['-m', shmId]).catch(() => undefined);
}

export interface PostgresNode {
  name: string;
  /** Chosen at the first start (0 before it), right before binding, and again if it was taken meanwhile. */
  readonly port: number;
  dataDir: string;
  /** postgres://postgres@127.0.0.1:<port>/<database> */
  url(database: string): string;
  /** The server's log so far. */
  log(): string;
  /** The postmaster's pid while it runs (from postmaster.pid), else undefined. */
  postmasterPid(): number | undefined;
  /** The first start picks a free port, and another if that one was taken in between (EADDRINUSE). */
  start(): Promise<void>;
  /** `pg_ctl stop -m <mode>` (fast: as an operator stops a standby). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** SIGKILL to the postmaster: the machine died. Its backends go on their own once they see it gone. */
  killHard(): void;
  /** `pg_ctl promote`: a standby becomes a primary. */
  promote(): Promise<void>;
  /** Appends settings to postgresql.conf; `pg_ctl reload` makes them count. */
  configure(settings: Record<string, string | number>): void;
  reload(): Promise<void>;
  /** Stops it whatever its state and drops its shared memory: for cleanup, never throws. */
  destroy(): Promise<void>;
  /** Synchronous last resort for an exiting test process: SIGQUIT (immediate shutdown) to a running postmaster. */
  destroySync(): void;
}

/** Tries to bind a port that a test file running beside this one may have taken since it was found free. */
const PORT_ATTEMPTS = 5;

function postgresNode(bin: string, name: string, dataDir: string, socketDir: string): PostgresNode {
  let port = 0;
  const logFile = join(socketDir, `${name}.log`);
  const pidLines = () => {
    try {
      return readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n');
    } catch {
      return undefined;
    }
  };
  const postmasterPid = () => {
    const pid = Number(pidLines()?.[0]);
    return pid > 0 && isAlive(pid) ? pid : undefined;
  };
  // The System V segment PostgreSQL keeps beside its mmap'd memory (7th line: key and id): a killed
  // postmaster leaves it behind, and nobody else would ever remove it.
  let lastShmId: string | undefined;
  const rememberShm = () => {
    lastShmId = pidLines()?.[6]?.trim().split(/\s+/)[1] ?? lastShmId;
  };
  const node: PostgresNode = {
    name,
    get port() {
      return port;
    },
    dataDir,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    log: () => {
      try {
        return readFileSync(logFile, 'utf8');
      } catch {
        return '';
      }
    },
    postmasterPid,
    async start() {
      // A restart keeps its port: replicas and PgBouncer know it by then.
      const firstStart = port === 0;
      for (let attempt = 1; ; attempt += 1) {
        if (firstStart) {
          port = await freePort();
          node.configure({ port });
        }
        const logBefore = node.log().length;
        try {
          await runAsPostgres(join(bin, 'pg_ctl'), ['start', '-w', '-t', '60', '-D', dataDir, '-l', logFile]);
          rememberShm();
          return;
        } catch (error) {
          const taken = /Address already in use/.test(node.log().slice(logBefore));
          if (!firstStart || !taken || attempt >= PORT_ATTEMPTS) throw error;
        }
      }
    },
    async stop(mode = 'fast') {
      await runAsPostgres(join(bin, 'pg_ctl'), ['stop', '-w', '-t', '60', '-m', mode, '-D', dataDir]);
    },
    killHard() {
      rememberShm();
      const pid = postmasterPid();
      if (pid) process.kill(pid, 'SIGKILL');
    },
    async promote() {
      await runAsPostgres(join(bin, 'pg_ctl'), ['promote', '-w', '-t', '60', '-D', dataDir]);
    },
    configure(settings) {
      const lines = Object.entries(settings).map(([key, value]) => `${key} = ${typeof value === 'number' ? value : `'${value}'`}`);
      appendFileSync(join(dataDir, 'postgresql.conf'), `\n${lines.join('\n')}\n`);
    },
    async reload() {
      await runAsPostgres(join(bin, 'pg_ctl'), ['reload', '-D', dataDir]);
    },
    async destroy() {
      if (postmasterPid()) await node.stop('immediate').catch(() => node.destroySync());
      if (lastShmId) await run('ipcrm', ['-m', lastShmId]).catch(() => undefined);
    },
    destroySync() {
      const pid = postmasterPid();
      if (pid) process.kill(pid, 'SIGQUIT');
    },
  };
  return node;
}

/**
 * A throw-away primary from Debian's binaries, on a free port and its own socket directory: trust
 * on 127.0.0.1 (replication too), WAL for a streaming standby, small memory. fsync stays on for the
 * server (a failover test counts on acknowledged commits being on disk); only initdb and
 * pg_basebackup skip their final sync of files a crash of this machine would throw away anyway.
 */
export async function initPrimary(bin: string, dir: string, name = 'primary'): Promise<PostgresNode> {
  const dataDir = join(dir, name);
  await runAsPostgres(join(bin, 'initdb'), [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--locale=C.UTF-8',
    '--no-sync',
  ]);
  const conf = (file: string, text: string) => writeFileSync(join(dataDir, file), text);
  conf('pg_hba.conf', ['local all all trust', 'host all all 127.0.0.1/32 trust', 'host replication all 127.0.0.1/32 trust', ''].join('\n'));
  const node = postgresNode(bin, name, dataDir, dir);
  node.configure({
    listen_addresses: '127.0.0.1',
    unix_socket_directories: dir,
    shared_buffers: '16MB',
    max_connections: 120,
    wal_level: 'replica',
    max_wal_senders: 5,
    // The standby is stopped and started again mid-test: the WAL written meanwhile must still be there.
    wal_keep_size: '256MB',
    hot_standby: 'on',
    fsync: 'on',
  });
  return node;
}

/** A streaming standby of `primary` (`pg_basebackup -R`), its `application_name` its name, for synchronous replication. */
export async function initStandby(bin: string, dir: string, primary: PostgresNode, name = 'standby'): Promise<PostgresNode> {
  const dataDir = join(dir, name);
  await runAsPostgres(join(bin, 'pg_basebackup'), [
    '-D',
    dataDir,
    '-d',
    `host=127.0.0.1 port=${primary.port} user=postgres application_name=${name}`,
    '-R',
    '-X',
    'stream',
    '-c',
    'fast',
    '--no-sync',
  ]);
  return postgresNode(bin, name, dataDir, dir);
}

/** Removes the cluster's directory (data, sockets, logs). */
export function removeClusterDir(dir: string) {
  rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
}
