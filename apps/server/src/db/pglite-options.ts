import fs from 'node:fs';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';

interface EmscriptenNodefs {
  NODEFS: {
    stream_ops: { fsync?: (stream: { nfd?: number }) => number };
    tryFSOperation<T>(run: () => T): T;
  };
}

/**
 * Emscripten's NODEFS has no fsync (electric-sql/pglite#1107): an acknowledged commit never reached the disk
 * (ADR 0001, "Durability"). This gives every stream the fsync of its host descriptor; a failure reaches
 * PostgreSQL as the errno, which it answers with a PANIC, as it should.
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

/** PGlite's own start parameters with fsync on (its `-F` turns it off), the WAL flushed by fsync (fdatasync is a no-op). */
const DURABLE_START_PARAMS = [...PGlite.defaultStartParams.filter((param) => param !== '-F'), '-c', 'wal_sync_method=fsync'];

/** A directory is opened durable; `memory://` keeps nothing. */
export function pgliteOptions(dir: string, extra: { loadDataDir?: Blob } = {}) {
  // btree_gin: staff-scoped keyword indexes (migration 0011) put staff_id in a GIN index.
  const extensions = { pg_trgm, btree_gin };
  if (dir.startsWith('memory://')) return { dataDir: dir, extensions, ...extra } satisfies PGliteOptions;
  return { fs: new SyncingNodeFS(dir), startParams: DURABLE_START_PARAMS, extensions, ...extra } satisfies PGliteOptions;
}
