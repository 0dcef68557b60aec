import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

export const PGLITE_LOCK_FILE = 'broker.lock';

export interface PgliteLockHolder {
  pid: number;
  host: string;
  /** For the refusal message: `server`, `npm run seed`, … */
  command: string;
  since: string;
  /** Linux: start time in clock ticks since boot, so a recycled pid is not taken for the holder. */
  startTicks?: string;
}

/** PGlite is one backend in one process: a second process on its files writes over the first's pages (ADR 0020). */
export class PgliteDirInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: PgliteLockHolder,
  ) {
    const where = holder.host === hostname() ? '' : ` on host ${holder.host}`;
    super(
      `PGLITE_DIR ${dir} is in use by process ${holder.pid}${where} (${holder.command}, since ${holder.since}): ` +
        `stop it, or set DATABASE_URL to use PostgreSQL` +
        (where ? ` (if that process is gone, delete ${join(dir, PGLITE_LOCK_FILE)})` : ''),
    );
    this.name = 'PgliteDirInUseError';
  }
}

/** Linux only: field 22 of /proc/<pid>/stat. */
function startTicksOf(pid: number): string | undefined {
  try {
    // The command name (field 2) may hold spaces and parentheses: count from its closing one.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function isAlive(holder: PgliteLockHolder): boolean {
  // On another machine (a shared volume): assume it lives.
  if (holder.host !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: it exists, under another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const ticks = startTicksOf(holder.pid);
  return !(holder.startTicks && ticks && ticks !== holder.startTicks);
}

function readHolder(path: string): { text: string; holder: PgliteLockHolder | null } | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as Partial<PgliteLockHolder>;
    if (typeof parsed.pid === 'number' && typeof parsed.host === 'string')
      return { text, holder: { command: '?', since: '?', ...parsed } as PgliteLockHolder };
  } catch {
    // Half-written by a process that died between create and write.
  }
  return { text, holder: null };
}

/**
 * Throws PgliteDirInUseError naming a live holder. A dead holder's lock is moved aside, checked to be the file
 * judged dead, and created afresh, so two processes racing for it cannot both win.
 */
export function lockPgliteDir(dir: string, command: string) {
  const path = join(dir, PGLITE_LOCK_FILE);
  const holder: PgliteLockHolder = {
    pid: process.pid,
    host: hostname(),
    command,
    since: new Date().toISOString(),
    startTicks: startTicksOf(process.pid),
  };
  const text = JSON.stringify(holder);
  for (let attempt = 0; ; attempt++) {
    if (tryCreate(path, text)) break;
    const found = readHolder(path);
    if (!found) continue;
    if (found.holder && isAlive(found.holder)) throw new PgliteDirInUseError(dir, found.holder);
    if (attempt >= 5) throw new Error(`PGLITE_DIR ${dir}: could not take over the stale lock ${path}`);
    takeOverStale(path, found.text);
  }

  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    try {
      if (readFileSync(path, 'utf8') === text) unlinkSync(path);
    } catch {
      // Already gone.
    }
  };
  process.on('exit', release);
  return { release };
}

function tryCreate(path: string, text: string): boolean {
  try {
    writeFileSync(path, text, { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** If what moved is not what was judged stale (a racer's fresh lock), puts it back. */
function takeOverStale(path: string, staleText: string) {
  const aside = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    if (readFileSync(aside, 'utf8') !== staleText) {
      try {
        linkSync(aside, path);
      } catch {
        // Someone created a lock meanwhile: theirs stands, and the next attempt reads it.
      }
    }
  } finally {
    unlinkSync(aside);
  }
}
