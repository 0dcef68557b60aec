import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, endpoints } from '@broker/contract';
import { testDatabases, startTestApp, signInAs, apiClient, type RunningTestApp } from '../testing';
import {
  endpointEntries,
  seedEndpointFixture,
  sweepCaller,
  validInputs,
  type EndpointFixture,
  type EndpointName,
} from '../testing/endpoint-fixture';
import { runMotRules } from '../modules/mot';
import { dispatchMotPushes, enqueueMotPushes } from '../modules/mot-push';
import { BUILT_IN_CORP } from '../corps';
import type { DatabaseHandle } from './client';

/**
 * Every statement the API runs, written to `sql-snapshots/<area>.sql`, so a change of SQL shows in
 * review as a diff of those files (ADR 0027). Each endpoint of the contract is called once with its
 * valid request on a seeded PGlite; the statements it ran are recorded in order, with parameters as
 * `$n`, never their values. A file holds each distinct statement once, under a line for every
 * endpoint (and step of it) that runs it, so a statement several endpoints share is reviewed once.
 * Under CI=true vitest does not write snapshots: a statement that changed without its snapshot fails
 * the run. `npx vitest run --project unit apps/server/src/db/sql-snapshots.test.ts -u` rewrites them.
 */

/** The file each endpoint's statements go to: its contract area (packages/contract/src/registry.ts). */
const AREA = Object.fromEntries(
  Object.entries(contract).flatMap(([area, members]) => Object.keys(members).map((name) => [name, area])),
) as Record<EndpointName, string>;

interface Statement {
  text: string;
  prepared: boolean;
}

/** The statement as written, without its indentation and blank lines: a re-indent is not a change of SQL. */
const normalised = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join('\n');

/**
 * One area's file: each distinct statement once, in the order first run, under a line per run naming
 * the endpoint (or batch) and, where it runs several, which of its statements this is.
 */
class AreaSnapshot {
  /** Keyed by the statement as written (with its `-- prepared` mark); null for a run of no statement. */
  private readonly entries = new Map<string, { runs: string[]; sql: string | null }>();

  add(title: string, statements: readonly Statement[]) {
    if (statements.length === 0) {
      this.entries.set(`(none) ${title}`, { runs: [`${title}: no statement`], sql: null });
      return;
    }
    statements.forEach((statement, index) => {
      const sql = `${statement.prepared ? '-- prepared\n' : ''}${normalised(statement.text)};`;
      const entry = this.entries.get(sql) ?? { runs: [], sql };
      entry.runs.push(statements.length === 1 ? title : `${title}, statement ${index + 1} of ${statements.length}`);
      this.entries.set(sql, entry);
    });
  }

  toString() {
    const blocks = [...this.entries.values()].map(({ runs, sql }) => [...runs.map((run) => `-- ${run}`), ...(sql ? [sql] : [])].join('\n'));
    return `${blocks.join('\n\n')}\n`;
  }
}

// PGlite only: the statements' text is the same on PostgreSQL (both engines run the same code), and
// the snapshot must not depend on whether TEST_DATABASE_URL is set.
const pglite = testDatabases().find((engine) => engine.kind === 'pglite')!;

describe('SQL snapshots: every statement of every endpoint', () => {
  let database: DatabaseHandle & { drop(): Promise<void> };
  let server: RunningTestApp;
  let fixture: EndpointFixture;
  let recording: Statement[] | null = null;

  const record = async (run: () => Promise<unknown>): Promise<Statement[]> => {
    recording = [];
    try {
      await run();
      return recording;
    } finally {
      recording = null;
    }
  };

  beforeAll(async () => {
    database = await pglite.create({ onQuery: (text, _params, prepared) => recording?.push({ text, prepared: prepared === true }) });
    fixture = await seedEndpointFixture(database);
    // No background work may run statements while an endpoint is recorded.
    server = await startTestApp(database);
  }, 300_000);
  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('matches the committed sql-snapshots/<area>.sql', async () => {
    const caller = await signInAs(server.baseUrl, 'chanwaiman');
    // Warm: the session and the WeCom credentials are then read from the process's caches, as on
    // most calls, and each endpoint shows its own statements only.
    await apiClient(server.baseUrl, caller).call(endpoints.isFold, {});
    const snapshots = new Map<string, AreaSnapshot>();
    const snapshotOf = (area: string) => {
      if (!snapshots.has(area)) snapshots.set(area, new AreaSnapshot());
      return snapshots.get(area)!;
    };
    const names = endpointEntries()
      .map(([name]) => name)
      .sort();
    for (const name of names) {
      const endpoint = endpoints[name];
      const input = await validInputs[name](fixture);
      const as = await sweepCaller(server.baseUrl, name, caller);
      let answer = '';
      const statements = await record(async () => {
        answer = (await apiClient(server.baseUrl, as).call(endpoint, input)).body.code;
      });
      if (name !== 'loginQywx') expect(answer, `${name} answered ${answer}`).toBe('0');
      snapshotOf(AREA[name]).add(`${name}: ${endpoint.method} ${endpoint.path}`, statements);
    }
    // The client list and KYC search as a book too large for memory is searched: in SQL alone (ADR 0035).
    const sqlServer = await startTestApp(database, { SEARCH_INDEX_MAX_ROWS: '0' });
    try {
      const sqlCaller = await signInAs(sqlServer.baseUrl, 'chanwaiman');
      for (const name of ['kycSearch', 'searchCustomers', 'statCustomers'] as const) {
        const endpoint = endpoints[name];
        const input = await validInputs[name](fixture);
        const as = await sweepCaller(sqlServer.baseUrl, name, sqlCaller);
        let answer = '';
        const statements = await record(async () => {
          answer = (await apiClient(sqlServer.baseUrl, as).call(endpoint, input)).body.code;
        });
        expect(answer, `${name} (searched in SQL) answered ${answer}`).toBe('0');
        snapshotOf('customer-search-in-sql').add(`${name} (SEARCH_INDEX_MAX_ROWS=0): ${endpoint.method} ${endpoint.path}`, statements);
      }
    } finally {
      await sqlServer.close();
    }
    // The daily sweep's batch (docs/mot.md): the same statements whether or not it inserts anything.
    const sweep = await record(() => runMotRules(database, { asOf: '2026-11-20' }));
    snapshotOf('mot').add('MOT rules (the daily sweep, mot-engine.ts)', sweep);
    // One WeCom card of the sweep's events, built and sent (push-dispatcher.ts): the others wait unrecorded.
    await enqueueMotPushes(database, { reason: 'sweep' });
    await database.query(
      `update mot_push set status = 'skipped' where status = 'pending' and id <> (select min(id) from mot_push where status = 'pending')`,
    );
    const corp = { ...BUILT_IN_CORP, id: fixture.corpId };
    const dispatch = await record(() =>
      dispatchMotPushes(database, {
        corps: [corp],
        send: async () => ({ msgid: 'msgid', invalidUsers: [], unlicensedUsers: [] }),
        appUrl: 'https://broker.example.com',
        quietHours: null,
        minIntervalMs: 0,
        concurrency: 1,
      }),
    );
    expect(dispatch.some((statement) => statement.text.includes('mot_push_event'))).toBe(true);
    snapshotOf('motPush').add('MOT push: one card built and sent (dispatchMotPushes, push-dispatcher.ts)', dispatch);

    for (const [area, snapshot] of [...snapshots].sort(([a], [b]) => a.localeCompare(b))) {
      // Soft: every area that changed is shown, not only the first.
      await expect.soft(snapshot.toString()).toMatchFileSnapshot(`sql-snapshots/${area}.sql`);
    }
    // A file no area writes any more is stale: it would still read as the truth in review.
    const written = new Set([...snapshots.keys()].map((area) => `${area}.sql`));
    expect(readdirSync(new URL('sql-snapshots/', import.meta.url)).filter((file) => !written.has(file))).toEqual([]);
  });
});
