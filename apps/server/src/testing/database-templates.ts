import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { hongKongDay } from '@broker/domain';
import { MIGRATIONS_FOLDER, openDatabase } from '../db/client';

/**
 * Test databases are copies of templates migrated once (ADR 0057): PGlite loads a dumped data directory,
 * PostgreSQL runs CREATE DATABASE … TEMPLATE. A template is named by the migrations it holds and the Hong
 * Kong month it was made in (migration 0034 creates the month partitions around it), so a changed migration
 * or a new month makes a new one; one that exists is used as it is.
 */
const PGLITE_VERSION = (
  JSON.parse(readFileSync(join(dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), '../package.json'), 'utf8')) as {
    version: string;
  }
).version;
const TEMPLATE_FOLDER = join(tmpdir(), 'broker-test-templates');

function templateKey(): string {
  const hash = createHash('sha256');
  for (const migration of readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER })) hash.update(migration.hash);
  hash.update(hongKongDay().slice(0, 7));
  return hash.digest('hex').slice(0, 16);
}

const pgliteTemplates = new Map<boolean, Promise<Blob>>();

/** A dumped PGlite data directory: migrated, or as a fresh PGlite has it (for suites that migrate themselves). */
export function pgliteTemplate(migrated: boolean): Promise<Blob> {
  let template = pgliteTemplates.get(migrated);
  if (!template) pgliteTemplates.set(migrated, (template = loadPgliteTemplate(migrated)));
  return template;
}

const pgliteTemplateFile = (migrated: boolean) =>
  join(TEMPLATE_FOLDER, `pglite-${PGLITE_VERSION}-${migrated ? templateKey() : 'initdb'}.tar`);

async function loadPgliteTemplate(migrated: boolean): Promise<Blob> {
  const file = pgliteTemplateFile(migrated);
  try {
    return new Blob([readFileSync(file)]);
  } catch (error) {
    // Not made yet, or removed as old by another checkout's run (removeOldTemplates): made again.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const handle = await openDatabase({ pgliteDir: 'memory://', migrate: migrated });
  // Opened on this thread (no pgliteWorker): the client is PGlite itself.
  const dump = Buffer.from(await (await (handle.pglite as PGlite).dumpDataDir('none')).arrayBuffer());
  await handle.close();
  mkdirSync(TEMPLATE_FOLDER, { recursive: true });
  // Written aside and renamed: a worker reading it meanwhile never sees half a file.
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, dump);
  renameSync(partial, file);
  return new Blob([dump]);
}

export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `work` on a connection to the server's maintenance database (`serverUrl`'s). */
export async function withAdmin<T>(serverUrl: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/**
 * The name of the migrated PostgreSQL template on `serverUrl`'s server, made if missing. It admits no
 * connection (a template is copied only while nobody is connected to it); it is built under a name of its
 * own and renamed, so runs sharing the server never copy one half-migrated.
 */
export async function postgresTemplate(serverUrl: string): Promise<string> {
  const name = `broker_template_${templateKey()}`;
  const exists = await withAdmin(serverUrl, (admin) => admin.query('select 1 from pg_database where datname = $1', [name]));
  if (exists.rowCount) return name;
  const building = `${name}_${randomBytes(4).toString('hex')}`;
  await withAdmin(serverUrl, (admin) => admin.query(`create database ${building}`));
  const handle = await openDatabase({ url: databaseUrl(serverUrl, building), poolMax: 1 });
  await handle.close();
  await withAdmin(serverUrl, async (admin) => {
    await admin.query(`alter database ${building} allow_connections false`);
    try {
      await admin.query(`alter database ${building} rename to ${name}`);
    } catch (error) {
      // Another run made it first (42P04, duplicate_database): theirs is the same.
      if ((error as { code?: string }).code !== '42P04') throw error;
      await admin.query(`drop database ${building}`);
    }
  });
  return name;
}

const postgresTemplates = new Map<string, Promise<string>>();

/**
 * Creates the database `name` on `serverUrl`'s server as a copy of the migrated template. A template that
 * vanished since (dropped as old by another checkout's run: removeOldTemplates) is made again.
 */
export async function createFromPostgresTemplate(serverUrl: string, name: string): Promise<void> {
  const copy = async () => {
    let template = postgresTemplates.get(serverUrl);
    if (!template) postgresTemplates.set(serverUrl, (template = postgresTemplate(serverUrl)));
    const source = await template;
    await withAdmin(serverUrl, (admin) => admin.query(`create database ${name} template ${source}`));
  };
  try {
    await copy();
  } catch (error) {
    // 3D000, invalid_catalog_name: the template named a moment ago is gone.
    if ((error as { code?: string }).code !== '3D000') throw error;
    postgresTemplates.delete(serverUrl);
    await copy();
  }
}

/** A PGlite dump being written now is young; one left by a killed run is not. */
const PARTIAL_DUMP_AGE_MS = 10 * 60_000;

/**
 * Templates of other migrations or months are dropped, the current ones kept: a few MB each, on the
 * PostgreSQL server and in the temporary folder, for ever otherwise. A run of another checkout that was
 * using one makes it again (createFromPostgresTemplate, loadPgliteTemplate); a template half-built by a
 * run in progress is left alone.
 */
async function removeOldTemplates(serverUrl: string | undefined): Promise<void> {
  const current = new Set([pgliteTemplateFile(true), pgliteTemplateFile(false)].map((file) => file.slice(TEMPLATE_FOLDER.length + 1)));
  for (const file of readdirSync(TEMPLATE_FOLDER)) {
    const path = join(TEMPLATE_FOLDER, file);
    // A partial dump renamed meanwhile has no age: it is not old.
    const old = file.endsWith('.partial')
      ? Date.now() - (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > PARTIAL_DUMP_AGE_MS
      : !current.has(file);
    if (old) rmSync(path, { force: true });
  }
  if (!serverUrl) return;
  const keep = await postgresTemplate(serverUrl);
  await withAdmin(serverUrl, async (admin) => {
    const { rows } = await admin.query<{ datname: string }>(
      `select datname from pg_database where datname ~ '^broker_template_[0-9a-f]{16}$' and datname <> $1`,
      [keep],
    );
    for (const { datname } of rows) await admin.query(`drop database if exists ${datname}`);
  });
}

/** Vitest global setup: the templates are made once, before any worker needs one; older ones are removed. */
export default async function setup() {
  await pgliteTemplate(true);
  await pgliteTemplate(false);
  await removeOldTemplates(process.env.TEST_DATABASE_URL);
}
