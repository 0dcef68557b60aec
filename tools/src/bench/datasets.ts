import cliProgress from 'cli-progress';
import {
  announceSweep,
  clearCustomerData,
  fillAllSearchTerms,
  openDatabase,
  runDailyMotSweep,
  seedDemoData,
  type DatabaseHandle,
} from '@broker/server';
import { decideDataset, formatMarker, parseMarker, type DatasetDecision, type DatasetIdentity } from './dataset-marker';
import type { Engine, MotSweepFigures } from './targets';

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
const quoteLiteral = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** Creates the database named in `url` when the server does not have it yet. */
export async function ensureDatabaseExists(url: string, log: (line: string) => void) {
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
}

async function seedWithProgress(handle: DatabaseHandle, identity: DatasetIdentity, log: (line: string) => void): Promise<number> {
  const started = performance.now();
  const interactive = process.stdout.isTTY;
  const bar = interactive
    ? new cliProgress.SingleBar(
        { format: '  customers [{bar}] {percentage}% {value}/{total} eta {eta_formatted}' },
        cliProgress.Presets.shades_classic,
      )
    : null;
  bar?.start(identity.customers, 0);
  let lastLogged = 0;
  await seedDemoData(handle, {
    ...identity,
    onProgress: (done) => {
      bar?.update(done);
      // Without a terminal (CI, a log file) print a line per tenth instead of redrawing a bar.
      if (!bar && done - lastLogged >= identity.customers / 10) {
        lastLogged = done;
        log(`  ${done.toLocaleString('en')} / ${identity.customers.toLocaleString('en')} customers`);
      }
    },
    log: (message) => {
      bar?.stop();
      log(`  ${message}`);
    },
  });
  bar?.stop();
  return Math.round(performance.now() - started);
}

const appliedMigrations = async (handle: DatabaseHandle) =>
  (await handle.query<{ count: number }>('select count(*)::int as count from drizzle.__drizzle_migrations'))[0]!.count;

export interface PreparedDataset {
  decision: DatasetDecision;
  seedMs: number | null;
}

/**
 * Makes the PostgreSQL database hold the wanted dataset: reuses a matching one (its marker),
 * adopts a matching unmarked one, or loads it (replacing any other customer data).
 */
export async function preparePostgresDataset(
  url: string,
  identity: DatasetIdentity,
  options: { reseed: boolean; log: (line: string) => void },
): Promise<PreparedDataset> {
  await ensureDatabaseExists(url, options.log);
  // A bulk load keeps every connection busy for seconds at a time: its workers wait for one rather than
  // fail after the server's default 2 s (a load on a busy machine died at 800,000 customers).
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
    const name = decodeURIComponent(new URL(url).pathname.slice(1));
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
 * A freshly loaded database is not yet what production runs on: the customer summaries rewrote
 * every customer row (974,000 dead tuples on 1M), and no page is marked all-visible, so every
 * "index-only" scan still visits the heap. Autovacuum would settle that some minutes later, in the
 * middle of the measurements (what that did to getProfile's p95: ADR 0029, docs/benchmarks.md round
 * four); vacuuming once here measures the steady state, every run.
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

/**
 * The daily MOT batch from a clean slate (events, contact records, cards and run log cleared, so the
 * first sweep raises everything, as on the first day) and then again (everything already
 * raised: the cost of a quiet day). As of the dataset's day, so the figures do not drift with the clock.
 */
export async function measureMotSweeps(handle: DatabaseHandle, engine: Engine, customers: number, asOf: string): Promise<MotSweepFigures> {
  // With what hangs off the events: snoozes, and the WeCom cards that announced them (so the first sweep
  // queues its cards as on the first day: its figure includes that, issue 24's "sweep and push").
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

/**
 * A database loaded before migration 0029 has no `search_terms`: every server would fill them in the
 * background (ADR 0046), bumping book versions while the cells run. Filled here, at once, before anything
 * is measured; a load by this version writes them with the rows and finds nothing to do.
 */
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
 * How big the PostgreSQL dataset is, for the scale comparison (issue 25): the database on disk, and its
 * history rows from the statistics the load's ANALYZE left (a count(*) over 75 million rows would take
 * minutes; the estimate is within a fraction of a percent after ANALYZE). Summed over the partitions.
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
