import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './client';
import { lockPgliteDir, PGLITE_LOCK_FILE, PgliteDirInUseError, type PgliteLockHolder } from './pglite-lock';

const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'broker-lock-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A pid that existed and has exited (reaped): nobody holds a lock with it. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid;
const writeLock = (dir: string, holder: Partial<PgliteLockHolder>) =>
  writeFileSync(
    join(dir, PGLITE_LOCK_FILE),
    JSON.stringify({ host: hostname(), command: 'old', since: '2026-01-01T00:00:00.000Z', ...holder }),
  );

describe('one process per PGlite directory', () => {
  it('refuses a second holder, naming the first, its command and since when; free again after release', () => {
    const dir = freshDir();
    const first = lockPgliteDir(dir, 'npm run seed');
    const refused = (() => {
      try {
        lockPgliteDir(dir, 'server');
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(PgliteDirInUseError);
    expect((refused as Error).message).toMatch(
      new RegExp(
        `^PGLITE_DIR ${dir} is in use by process ${process.pid} \\(npm run seed, since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\): stop it, or set DATABASE_URL to use PostgreSQL$`,
      ),
    );
    first.release();
    expect(existsSync(join(dir, PGLITE_LOCK_FILE))).toBe(false);
    lockPgliteDir(dir, 'server').release();
  });

  it('takes over a lock left by a process that died, and one whose pid now belongs to another process', () => {
    const dir = freshDir();
    writeLock(dir, { pid: deadPid() });
    const taken = lockPgliteDir(dir, 'server');
    expect(JSON.parse(readFileSync(join(dir, PGLITE_LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid, command: 'server' });
    taken.release();
    // Our own pid, but started at another moment: the pid was recycled after the holder died.
    writeLock(dir, { pid: process.pid, startTicks: '1' });
    lockPgliteDir(dir, 'server').release();
    // A half-written lock (its writer died between create and write) holds nothing either.
    writeFileSync(join(dir, PGLITE_LOCK_FILE), '{"pid":');
    lockPgliteDir(dir, 'server').release();
  });

  it('does not release a lock that another process has taken over since', () => {
    const dir = freshDir();
    const mine = lockPgliteDir(dir, 'server');
    writeLock(dir, { pid: 1, command: 'someone else' });
    mine.release();
    expect(JSON.parse(readFileSync(join(dir, PGLITE_LOCK_FILE), 'utf8'))).toMatchObject({ command: 'someone else' });
  });

  it('openDatabase holds the directory until close, and a refused open leaves the holder alone', async () => {
    const dir = freshDir();
    const database = await openDatabase({ pgliteDir: dir, holder: 'test holder' });
    try {
      await expect(openDatabase({ pgliteDir: dir, holder: 'intruder' })).rejects.toThrow(/in use by process \d+ \(test holder/);
      expect(await database.query('select 1 as one')).toEqual([{ one: 1 }]);
    } finally {
      await database.close();
    }
    expect(existsSync(join(dir, PGLITE_LOCK_FILE))).toBe(false);
    const again = await openDatabase({ pgliteDir: dir, holder: 'next' });
    await again.close();
  });
});
