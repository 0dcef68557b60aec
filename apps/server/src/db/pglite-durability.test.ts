import fs, { existsSync, mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type DatabaseHandle } from './client';

const durabilitySettings = (database: DatabaseHandle) =>
  database.query<{ name: string; setting: string }>(
    `select name, setting from pg_settings where name in ('fsync', 'full_page_writes', 'synchronous_commit', 'wal_sync_method') order by name`,
  );
const DURABLE = [
  { name: 'fsync', setting: 'on' },
  { name: 'full_page_writes', setting: 'on' },
  { name: 'synchronous_commit', setting: 'on' },
  { name: 'wal_sync_method', setting: 'fsync' },
];

/*
 * A file-backed PGlite puts a commit on the disk before acknowledging it (ADR 0001, "Durability"): PostgreSQL runs
 * with fsync on and flushes its WAL with fsync(), which our file system passes to the host (PGlite's NODEFS alone
 * drops it). These fail if a PGlite upgrade brings back `-F` or stops calling our fsync.
 */
describe('file-backed PGlite is durable', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'broker-pglite-durable-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('a commit is answered only after the WAL it wrote was fsynced on the host; PostgreSQL runs with fsync on', async () => {
    const database = await openDatabase({ pgliteDir: join(root, 'thread'), migrate: false });
    const fsync = fs.fsyncSync;
    const synced: string[] = [];
    const spy = vi.spyOn(fs, 'fsyncSync').mockImplementation((fd) => {
      synced.push(existsSync('/proc/self/fd') ? readlinkSync(`/proc/self/fd/${fd}`) : 'fd');
      fsync(fd);
    });
    try {
      expect(await durabilitySettings(database)).toEqual(DURABLE);
      await database.query('create table kept (id int)');
      synced.length = 0;
      await database.query('insert into kept values (1)');
      expect(synced.length).toBeGreaterThan(0);
      if (existsSync('/proc/self/fd')) expect(synced.some((path) => path.includes('/pg_wal/'))).toBe(true);
    } finally {
      spy.mockRestore();
      await database.close();
    }
  });
});
