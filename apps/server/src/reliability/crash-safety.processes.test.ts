import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { z } from 'zod';
import { ErrorCode, getBaseInfo, handleEvent, kycBind, markEventsSeen, updateProfile, type Endpoint } from '@broker/contract';
import { DEMO_EXTERNAL_CONTACTS, DEMO_STAFF } from '../db/seed/reference-data';
import { MIGRATIONS_FOLDER, openDatabase, type DatabaseHandle } from '../db/client';
import { seedDemoData } from '../db/seed';
import { runMotRules } from '../modules/mot';
import { hongKongDay } from '@broker/domain';
import { signInAs, type SignedIn } from '../testing/test-app';
import { apiClient, type ApiClient } from '../testing/api-client';
import { startServerProcess, type ServerProcess } from '../testing/server-process';
import { callEndpoint, createPostgresDatabase, postgresAdminUrl, sleep, staffWorkload, type CallOutcome } from './reliability-fixtures';

const WRITERS = 32;
/** SIGKILL once this many writes were acknowledged: the burst is in full flow by then. */
const KILL_AFTER_ACKNOWLEDGED = 150;

interface Engine {
  name: string;
  /** Environment that points a server process at the database. */
  env: Record<string, string>;
  open(): Promise<DatabaseHandle>;
  drop(): Promise<void>;
}

async function pgliteEngine(): Promise<Engine> {
  const dir = mkdtempSync(join(tmpdir(), 'broker-crash-'));
  return {
    name: 'pglite',
    env: { PGLITE_DIR: dir },
    open: () => openDatabase({ pgliteDir: dir }),
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function postgresEngine(): Promise<Engine> {
  const database = await createPostgresDatabase('crash');
  return {
    name: 'postgres',
    env: { DATABASE_URL: database.url },
    open: () => openDatabase({ url: database.url, poolMax: 2 }),
    drop: () => database.drop(),
  };
}

// PostgreSQL when TEST_DATABASE_URL is set (CI sets it); PGlite always.
const engines: Array<[string, () => Promise<Engine>]> = [
  ['pglite', pgliteEngine],
  ...(postgresAdminUrl ? [['postgres', postgresEngine] as [string, () => Promise<Engine>]] : []),
];

interface Writes {
  /** Profile edits answered "0": the version the server gave back, and the remark written. */
  edits: Map<number, { version: number; remark: string }>;
  /** Profile edits sent and not (yet) answered: may or may not have committed when the process died. */
  inFlightEdits: Map<number, { version: number; remark: string }>;
  handled: Map<number, { recordId: number; note: string }>;
  seen: Set<number>;
  bindings: Map<string, number>;
}

describe.each(engines)('crash safety on %s: kill -9 in the middle of a write burst', (_name, makeEngine) => {
  let engine: Engine;
  afterAll(async () => engine?.drop());

  it('keeps every acknowledged write, and the database opens cleanly after restart', { timeout: 240_000 }, async () => {
    engine = await makeEngine();
    const setup = await engine.open();
    await seedDemoData(setup, { customers: 400, seed: 17, asOf: hongKongDay() });
    await runMotRules(setup);
    const workload = await staffWorkload(setup);
    const [migrationsBefore] = await setup.query<{ count: number }>('select count(*)::int as count from drizzle.__drizzle_migrations');
    // PGlite: one process per directory, so the test lets go before the server opens it.
    await setup.close();

    let server: ServerProcess | undefined = await startServerProcess({ env: engine.env });
    try {
      const sessions = new Map<string, SignedIn>();
      for (const member of DEMO_STAFF) sessions.set(member.userid, await signInAs(server.baseUrl, member.userid));
      const writes: Writes = { edits: new Map(), inFlightEdits: new Map(), handled: new Map(), seen: new Set(), bindings: new Map() };
      const unexpected: string[] = [];
      let acknowledged = 0;
      let inFlight = 0;
      let killed = false;

      const call = async <E extends Endpoint>(api: ApiClient, endpoint: E, input: z.input<E['request']>) => {
        inFlight += 1;
        const outcome: CallOutcome = await callEndpoint(api, endpoint, input);
        inFlight -= 1;
        if (outcome.kind === 'answer' && outcome.code === ErrorCode.OK) {
          // Every write here is a POST; the edits' getBaseInfo reads do not count.
          if (endpoint.method === 'POST') acknowledged += 1;
          return outcome.data;
        }
        // After the kill, no answer is the expected answer; before it, anything but "0" is a failure.
        if (!killed) unexpected.push(`${endpoint.path} ${JSON.stringify(input).slice(0, 100)} → ${JSON.stringify(outcome).slice(0, 300)}`);
        return undefined;
      };

      const userids = DEMO_STAFF.map((member) => member.userid);
      const perStaff = WRITERS / userids.length;
      const writers = Array.from({ length: WRITERS }, async (_, index) => {
        const userid = userids[index % userids.length]!;
        const slot = Math.floor(index / userids.length);
        const api = apiClient(server!.baseUrl, sessions.get(userid));
        const mine = <T>(items: T[] | undefined) => (items ?? []).filter((_, position) => position % perStaff === slot);
        const customers = mine(workload.customers.get(userid));
        const events = mine(workload.pendingEvents.get(userid));
        // Each contact can be bound once: the first of its followers binds it, in the first writer slot.
        const contacts = slot === 0 ? DEMO_EXTERNAL_CONTACTS.filter((contact) => contact.followedBy[0] === userid) : [];
        for (let serial = 0; !killed; serial += 1) {
          const contact = contacts.pop();
          if (contact) {
            const customerId = customers[serial % customers.length]!;
            if (await call(api, kycBind, { externalUserId: contact.externalUserId, customerId }))
              writes.bindings.set(contact.externalUserId, customerId);
          } else if (serial % 3 === 2 && events.length > 0) {
            const eventId = events.pop()!;
            const note = `crash w${index} #${serial}`;
            const record = (await call(api, handleEvent, { eventId, channel: 'wecom', note })) as { recordId: number } | undefined;
            if (record) writes.handled.set(eventId, { recordId: record.recordId, note });
          } else if (serial % 4 === 1 && events.length > 0) {
            const eventId = events.at(-1)!;
            if (await call(api, markEventsSeen, { eventIds: [eventId] })) writes.seen.add(eventId);
          } else {
            const customerId = customers[serial % customers.length]!;
            const current = (await call(api, getBaseInfo, { customerId })) as { version: number } | undefined;
            if (!current) continue;
            const remark = `crash w${index} #${serial}`;
            writes.inFlightEdits.set(customerId, { version: current.version + 1, remark });
            const saved = (await call(api, updateProfile, { customerId, version: current.version, remark })) as
              { version: number } | undefined;
            if (saved) {
              writes.edits.set(customerId, { version: saved.version, remark });
              writes.inFlightEdits.delete(customerId);
            }
          }
        }
      });

      while (acknowledged < KILL_AFTER_ACKNOWLEDGED && unexpected.length === 0) await sleep(5);
      const inFlightAtKill = inFlight;
      killed = true;
      // The server's own account of a failed call (an internal error's cause is only in its log).
      const serverErrors = () =>
        server!
          .output()
          .split('\n')
          .filter((line) => /"level":(50|60)|error/i.test(line))
          .slice(-20)
          .join('\n');
      const errorsBeforeKill = unexpected.length > 0 ? serverErrors() : '';
      await server.stop('SIGKILL');
      await Promise.all(writers);
      expect(unexpected, errorsBeforeKill).toEqual([]);
      console.info(
        `crash safety (${engine.name}): SIGKILL with ${inFlightAtKill} requests in flight after ${acknowledged} acknowledged writes ` +
          `(${writes.edits.size} profiles edited, ${writes.handled.size} events handled, ${writes.seen.size} marked seen, ${writes.bindings.size} KYC binds)`,
      );
      expect(writes.edits.size).toBeGreaterThan(0);
      expect(writes.handled.size).toBeGreaterThan(0);

      // Same database, new process: it must open (PGlite recovers its directory), migrate nothing and answer.
      server = await startServerProcess({ env: engine.env });
      // A token issued before the kill still works: sessions are in the database, not the process.
      const before = sessions.get(userids[0]!)!;
      const customerId = workload.customers.get(userids[0]!)![0]!;
      expect(await callEndpoint(apiClient(server.baseUrl, before), getBaseInfo, { customerId })).toMatchObject({
        kind: 'answer',
        code: ErrorCode.OK,
      });
      await server.stop();
      server = undefined;

      const check = await engine.open();
      try {
        const [migrationsAfter] = await check.query<{ count: number }>('select count(*)::int as count from drizzle.__drizzle_migrations');
        const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] };
        expect(migrationsAfter!.count).toBe(migrationsBefore!.count);
        expect(migrationsAfter!.count).toBe(journal.entries.length);

        const profiles = await check.query<{ id: number; version: number; remark: string | null }>(
          'select id::int as id, version, remark from customer where id = any($1::bigint[])',
          [[...writes.edits.keys()]],
        );
        for (const profile of profiles) {
          const acknowledgedEdit = writes.edits.get(profile.id)!;
          const unanswered = writes.inFlightEdits.get(profile.id);
          // The acknowledged edit, or the one after it that committed just before the kill but whose answer was lost.
          const expected = unanswered && profile.version === unanswered.version ? unanswered : acknowledgedEdit;
          expect({ customerId: profile.id, version: profile.version, remark: profile.remark }).toEqual({
            customerId: profile.id,
            ...expected,
          });
        }
        expect(profiles).toHaveLength(writes.edits.size);

        const records = await check.query<{ eventId: number; recordId: number; note: string; status: string }>(
          `select e.id::int as "eventId", r.id::int as "recordId", r.note, e.status
             from mot_event e join contact_record_event l on l.mot_event_id = e.id join contact_record r on r.id = l.record_id where e.id = any($1::bigint[])`,
          [[...writes.handled.keys()]],
        );
        expect(records.sort((a, b) => a.eventId - b.eventId)).toEqual(
          [...writes.handled].map(([eventId, record]) => ({ eventId, ...record, status: 'handled' })).sort((a, b) => a.eventId - b.eventId),
        );
        const seen = await check.query<{ id: number; status: string }>(
          'select id::int as id, status from mot_event where id = any($1::bigint[])',
          [[...writes.seen]],
        );
        expect(seen.filter((event) => event.status === 'new')).toEqual([]);
        expect(seen).toHaveLength(writes.seen.size);
        const bindings = await check.query<{ externalUserId: string; customerId: number }>(
          'select external_user_id as "externalUserId", customer_id::int as "customerId" from kyc_binding',
        );
        for (const [externalUserId, customerId] of writes.bindings) expect(bindings).toContainEqual({ externalUserId, customerId });
      } finally {
        await check.close();
      }
    } finally {
      await server?.stop('SIGKILL');
    }
  });
});
