import fs from 'node:fs';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';

/** What this file reaches of Emscripten's module: NODEFS's shared stream operations and its error mapping. */
interface EmscriptenNodefs {
  NODEFS: {
    stream_ops: { fsync?: (stream: { nfd?: number }) => number };
    tryFSOperation<T>(run: () => T): T;
  };
}

/**
 * PGlite's file system on Node (Emscripten's NODEFS) has no fsync: PostgreSQL's fsync() returns success having
 * reached nothing, and fdatasync() is a no-op in Emscripten's syscall layer (electric-sql/pglite#1107). So even
 * with fsync on, nothing an acknowledged commit wrote was ever forced to the disk (ADR 0001, "Durability").
 * This NodeFS gives every stream the fsync of the host descriptor NODEFS already holds for it (files and
 * directories); a failure reaches PostgreSQL as the errno, which it answers with a PANIC, as it should.
 */
class SyncingNodeFS extends NodeFS {
  override async init(...args: Parameters<NodeFS['init']>) {
    const { emscriptenOpts } = await super.init(...args);
    const addFsync = (module: unknown) => {
      const { NODEFS } = module as EmscriptenNodefs;
      NODEFS.stream_ops.fsync = (stream) => {
        const descriptor = stream.nfd;
        if (descriptor !== undefined) NODEFS.tryFSOperation(() => fs.fsyncSync(descriptor));
        return 0;
      };
    };
    return { emscriptenOpts: { ...emscriptenOpts, preRun: [...(emscriptenOpts.preRun ?? []), addFsync] } };
  }
}

/**
 * PGlite's own start parameters but with fsync on (its default `-F` turns it off), and the WAL flushed with
 * fsync() rather than fdatasync(), the one Emscripten leaves a no-op.
 */
const DURABLE_START_PARAMS = [...PGlite.defaultStartParams.filter((param) => param !== '-F'), '-c', 'wal_sync_method=fsync'];

/**
 * PGlite's options for `dir`: a file-backed directory is opened durable (a commit is on the disk before it is
 * acknowledged); `memory://` keeps nothing, so nothing is synced.
 */
export function pgliteOptions(dir: string, extra: { loadDataDir?: Blob } = {}) {
  // btree_gin: staff-scoped keyword indexes (migration 0011) put staff_id in a GIN index.
  const extensions = { pg_trgm, btree_gin };
  if (dir.startsWith('memory://')) return { dataDir: dir, extensions, ...extra } satisfies PGliteOptions;
  return { fs: new SyncingNodeFS(dir), startParams: DURABLE_START_PARAMS, extensions, ...extra } satisfies PGliteOptions;
}
