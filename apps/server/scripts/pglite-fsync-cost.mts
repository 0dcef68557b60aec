// What durability costs a file-backed PGlite (ADR 0001, "Durability"): N single-row committed writes with PGlite's
// own options (fsync off) and with ours (fsync on, passed to the disk), in alternating rounds; then a write
// acknowledged and the process SIGKILLed at once, and the row looked for after reopening. Run from the root:
//   node --import tsx apps/server/scripts/pglite-fsync-cost.mts      (N=500, ROUNDS=3, DIR=a temp directory)
// Under `strace -f -c -e trace=fsync,fdatasync` the durable rounds show the fsync() calls; PGlite's own show none.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pgliteOptions } from '../src/db/pglite-options.ts';

const N = Number(process.env.N ?? 500);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const root = process.env.DIR ?? mkdtempSync(join(tmpdir(), 'pglite-fsync-cost-'));
const open = (dir: string, durable: boolean) => PGlite.create(durable ? pgliteOptions(dir) : { dataDir: dir });

if (process.argv[2] === 'write-and-die') {
  // The child: one committed write, its id printed as the acknowledgement, then killed before anything else runs.
  const pg = await open(process.argv[3]!, true);
  await pg.exec('create table if not exists kept (id serial primary key, at timestamptz default now())');
  const { rows } = await pg.query<{ id: number }>('insert into kept default values returning id');
  process.stdout.write(`${rows[0]!.id}\n`);
  process.kill(process.pid, 'SIGKILL');
}

async function perWriteMs(durable: boolean, round: number): Promise<number> {
  const pg = await open(join(root, `${durable ? 'durable' : 'default'}-${round}`), durable);
  await pg.exec('create table t (id serial primary key, v text)');
  const started = performance.now();
  for (let i = 0; i < N; i += 1) await pg.query('insert into t (v) values ($1)', [`row ${i}`]);
  const ms = (performance.now() - started) / N;
  await pg.close();
  return ms;
}

const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const times = { default: [] as number[], durable: [] as number[] };
for (let round = 0; round < ROUNDS; round += 1) {
  times.default.push(await perWriteMs(false, round));
  times.durable.push(await perWriteMs(true, round));
}
const fmt = (values: number[]) => `median ${median([...values]).toFixed(3)} ms (${values.map((v) => v.toFixed(3)).join(', ')})`;
console.log(`${N} single-row committed writes, ${ROUNDS} rounds, ms per write:`);
console.log(`  PGlite's defaults (fsync off): ${fmt(times.default)}`);
console.log(`  durable (fsync on, to disk):   ${fmt(times.durable)}`);

const killed = join(root, 'killed');
const child = spawnSync(process.execPath, ['--import', 'tsx', new URL(import.meta.url).pathname, 'write-and-die', killed], {
  encoding: 'utf8',
});
const acknowledged = Number(child.stdout.trim());
const reopened = await open(killed, true);
const { rows } = await reopened.query('select id from kept where id = $1', [acknowledged]);
await reopened.close();
console.log(
  `SIGKILL right after acknowledging row ${acknowledged} (signal ${child.signal}): ${rows.length === 1 ? 'present' : 'MISSING'} after reopening`,
);
if (!process.env.DIR) rmSync(root, { recursive: true, force: true });
