import { cpus, release, totalmem, type } from 'node:os';
import { openDatabase } from '@broker/server';

/** The PostgreSQL settings that decide how a read-heavy benchmark behaves. */
const KEY_SETTINGS = [
  'shared_buffers',
  'effective_cache_size',
  'work_mem',
  'max_connections',
  'random_page_cost',
  'jit',
  'max_parallel_workers_per_gather',
  'synchronous_commit',
];

export async function describeMachine(postgresUrl: string | null) {
  const processors = cpus();
  const info = {
    cpu: processors[0]?.model.trim() ?? 'unknown',
    cores: processors.length,
    ramGb: totalmem() / 1024 ** 3,
    os: `${type()} ${release()}`,
    node: process.version,
    /** e.g. `PostgreSQL 15.20 (Debian …)`; null when the run had no PostgreSQL. */
    postgresVersion: null as string | null,
    postgresSettings: {} as Record<string, string>,
  };
  if (!postgresUrl) return info;
  const handle = await openDatabase({ url: postgresUrl, poolMax: 1, migrate: false });
  try {
    const [version] = await handle.query<{ version: string }>('select version()');
    info.postgresVersion = version?.version.replace(/, compiled by.*$/, '') ?? null;
    // `current_setting` gives the value with its unit as an operator would write it (128MB, not 16384).
    for (const name of KEY_SETTINGS) {
      const [row] = await handle.query<{ value: string }>('select current_setting($1) as value', [name]);
      if (row) info.postgresSettings[name] = row.value;
    }
  } finally {
    await handle.close();
  }
  return info;
}
