import {
  announceSweep,
  clearCustomerData,
  fillAllSearchTerms,
  openDatabase,
  runDailyMotSweep,
  seedDemoData,
  type DatabaseHandle,
} from '@broker/server';
import { seedProgress } from '../cli/seed-progress';
import { decideDataset, formatMarker, parseMarker, type DatasetDecision, type DatasetIdentity } from './dataset-marker';
import type { Engine, MotSweepFigures } from './targets';

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
const quoteLiteral = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** Creates the database named in `url` when the server does not have it yet; answers its name. */
async function ensureDatabaseExists(url: string, log: (line: string) => void) {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!name) throw new Error(`--database-url ${url}: names no database`);
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const admin = await openDatabase({ url: maintenance.toString(), poolMax: 1, migrate: false });
  try {
    const [exists] = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (!exists) {
      log(`creating database ${name}`);
      await admin.query(`create database ${quoteIdent(name)}`);
    }
  } finally {
    await admin.close();
  }
  return name;
}

async function seedWithProgress(handle: DatabaseHandle, identity: DatasetIdentity, log: (line: string) => void): Promise<number> {
  const started = performance.now();
  const progress = seedProgress(log, { indent: '  ', lines: true });
  await seedDemoData(handle, { ...identity, onProgress: progress.onProgress, log: progress.log });
  progress.stop();
  return Math.round(performance.now() - started);
}

const appliedMigrations = async (handle: DatabaseHandle) =>
  (await handle.query<{ count: number }>('select count(*)::int as count from drizzle.__drizzle_migrations'))[0]!.count;

/** Makes the PostgreSQL database hold the wanted dataset: reused or adopted when it matches, else loaded afresh. */
export async function preparePostgresDataset(
  url: string,
  identity: DatasetIdentity,
  options: { reseed: boolean; log: (line: string) => void },
): Promise<{ decision: DatasetDecision; seedMs: number | null }> {
  const name = await ensureDatabaseExists(url, options.log);
  // A bulk load keeps every connection busy for seconds: its workers wait for one rather than fail after the default 2 s.
  const handle = await openDatabase({ url, poolMax: 12, poolWaitMs: 120_000 });
  try {
    const migrations = await appliedMigrations(handle);
    const [comment] = await handle.query<{ comment: string | null }>(
      `select shobj_description(oid, 'pg_database') as comment from pg_database where datname = current_database()`,
    );
    const [observed] = await handle.query<{ customers: number; priceDate: string | null }>(
      `select (select count(*)::int from customer) as customers, (select max(price_date)::text from security) as "priceDate"`,
    );
    const decision = decideDataset({
      wanted: identity,
      marker: parseMarker(comment?.comment),
      observed: observed!,
      migrations,
      reseed: options.reseed,
    });
    const writeMarker = (origin: 'seeded' | 'adopted') =>
      handle.query(
        `comment on database ${quoteIdent(name)} is ${quoteLiteral(formatMarker({ ...identity, migrations, seededAt: new Date().toISOString(), origin }))}`,
      );
    options.log(
      `${decision.action === 'seed' ? 'loading' : decision.action === 'adopt' ? 'adopting' : 'reusing'} ${name}: ${decision.reason}`,
    );
    if (decision.action === 'reuse' || decision.action === 'adopt') {
      await fillMissingSearchTerms(handle, options.log);
      if (decision.action === 'adopt') await writeMarker('adopted');
      return { decision, seedMs: null };
    }
    // An interrupted load must not leave a marker claiming the old dataset.
    await handle.query(`comment on database ${quoteIdent(name)} is null`);
    if (observed!.customers > 0) await clearCustomerData(handle);
    const seedMs = await seedWithProgress(handle, identity, options.log);
    await settleAfterLoad(handle, options.log);
    await writeMarker('seeded');
    return { decision, seedMs };
  } finally {
    await handle.close();
  }
}

/**
 * A fresh load has a dead tuple per customer (the summaries rewrote them) and no all-visible page, which autovacuum
 * settles minutes later, mid-measurement (ADR 0029): vacuumed here, every run measures the steady state.
 */
async function settleAfterLoad(handle: DatabaseHandle, log: (line: string) => void) {
  const started = performance.now();
  await handle.query('vacuum (analyze)');
  log(`  vacuum (analyze) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** A fresh on-disk PGlite database with the wanted dataset. */
export async function preparePgliteDataset(dir: string, identity: DatasetIdentity, log: (line: string) => void): Promise<number> {
  const handle = await openDatabase({ pgliteDir: dir });
  try {
    const seedMs = await seedWithProgress(handle, identity, log);
    await settleAfterLoad(handle, log);
    return seedMs;
  } finally {
    await handle.close();
  }
}

/** The daily MOT batch from a clean slate (the first day) and again (a quiet day), as of the dataset's day. */
export async function measureMotSweeps(handle: DatabaseHandle, engine: Engine, customers: number, asOf: string): Promise<MotSweepFigures> {
  // With their snoozes and cards, so the first sweep queues its cards as on the first day (ADR 0042: sweep and push).
  await handle.query(
    'truncate contact_record_event, contact_record, mot_event_snooze, mot_push_event, mot_push, mot_event restart identity',
  );
  await handle.query('delete from mot_sweep_run');
  const first = await runDailyMotSweep(handle, { asOf, force: true, announce: announceSweep });
  if (first.status !== 'ran') throw new Error(`MOT sweep did not run: ${first.status}`);
  const rerun = await runDailyMotSweep(handle, { asOf, force: true, announce: announceSweep });
  if (rerun.status !== 'ran') throw new Error(`MOT sweep re-run did not run: ${rerun.status}`);
  return {
    engine,
    customers,
    asOf,
    firstMs: first.result.elapsedMs,
    firstInserted: first.result.total,
    rerunMs: rerun.result.elapsedMs,
    ruleMs: first.result.ruleMs,
  };
}

/** A database loaded before migration 0029 has no `search_terms`: filled before measuring, not by the servers mid-run (ADR 0046). */
async function fillMissingSearchTerms(handle: DatabaseHandle, log: (line: string) => void) {
  const started = Date.now();
  const [missing] = await handle.query<{ any: boolean }>('select exists (select 1 from customer where search_terms is null) as any');
  if (!missing?.any) return;
  log('filling customer.search_terms (migration 0029) before measuring…');
  const written = await fillAllSearchTerms(handle, 20_000);
  await handle.query('vacuum (analyze) customer');
  log(`  ${written.toLocaleString('en')} customers' search terms filled in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * The database on disk and its history rows, for the scale comparison (ADR 0052 (standbys) / ADR 0053 (partitions)):
 * rows from ANALYZE's statistics summed over the partitions, as a count(*) of them would take minutes.
 */
export async function measureDatabaseSize(handle: DatabaseHandle): Promise<{ databaseBytes: number; historyRows: number }> {
  const [row] = await handle.query<{ databaseBytes: string; historyRows: string }>(
    `select pg_database_size(current_database())::text as "databaseBytes",
            coalesce(sum(greatest(c.reltuples, 0)), 0)::bigint::text as "historyRows"
       from pg_class c
      where c.relkind = 'r'
        and (c.oid in ('trade'::regclass, 'money_movement'::regclass, 'stock_transfer'::regclass)
             or exists (select 1 from pg_inherits i
                         where i.inhrelid = c.oid
                           and i.inhparent in ('trade'::regclass, 'money_movement'::regclass, 'stock_transfer'::regclass)))`,
  );
  return { databaseBytes: Number(row!.databaseBytes), historyRows: Number(row!.historyRows) };
}
