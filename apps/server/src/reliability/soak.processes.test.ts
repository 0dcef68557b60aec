import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { cpus, loadavg } from 'node:os';
import {
  ErrorCode,
  getAsset,
  getBaseInfo,
  getDynamic,
  getHolding,
  getProfile,
  getTodoClients,
  getTodoDates,
  getTodoTaskCount,
  getTrade,
  getTransfer,
  getWithdrawalDeposit,
  handleEvent,
  hasKyc,
  searchCustomers,
  statCustomers,
  updateProfile,
  type Endpoint,
} from '@broker/contract';
import { DEMO_EXTERNAL_CONTACTS, DEMO_STAFF } from '../db/seed/reference-data';
import { seedDemoData } from '../db/seed';
import { runMotRules } from '../modules/mot';
import { hongKongDay } from '@broker/domain';
import { signInAs, type SignedIn } from '../testing/test-app';
import { apiClient, type ApiClient } from '../testing/api-client';
import { startServerProcess, type ServerProcess } from '../testing/server-process';
import {
  callEndpoint,
  createPostgresDatabase,
  megabytes,
  percentile,
  postgresAdminUrl,
  sleep,
  staffWorkload,
  type CallOutcome,
} from './reliability-fixtures';

const SOAK_MS = 60_000;
const CONNECTIONS = 64;
const CUSTOMERS = 3000;
/** Memory is judged after this warm-up (JIT, pools, caches filling). */
const WARM_UP_MS = 20_000;
const SAMPLE_EVERY_MS = 2_000;
/**
 * Leak bounds over the last 40 s. Live heap (after a forced GC) is the sharp one: in measured runs
 * it moved by 0.2–1.2 MB over that window; a leak that keeps what a request touches (its request,
 * reply, socket, rows: several KB) would pass 12 MB within a few thousand requests, which even an
 * overloaded runner serves in 40 s. RSS also holds freed-but-kept pages and allocator slack, so its
 * bound is wider; it catches native leaks (buffers, sockets) the heap misses.
 */
const HEAP_GROWTH_LIMIT = 12 * 1024 * 1024;
const RSS_GROWTH_LIMIT = 64 * 1024 * 1024;
/** Customers every writer of a staff member edits at once: there a 090409 is a correct answer. */
const CONTENDED_PER_STAFF = 2;

interface Worker {
  index: number;
  /** The staff member's signed-in browser. */
  api: ApiClient;
  userid: string;
  /** Any of the staff member's customers, for reads. */
  customers: number[];
  /** Only this worker edits these: every edit must succeed. */
  ownCustomers: number[];
  contended: number[];
  /** Pending MOT events only this worker handles. */
  ownEvents: number[];
}

interface AcknowledgedEdit {
  customerId: number;
  remark: string;
  version: number;
}

const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!;

// PostgreSQL only (the issue's soak is on PostgreSQL); CI sets TEST_DATABASE_URL.
describe.skipIf(!postgresAdminUrl)(
  'load and soak: 60 s of mixed reads and writes at 64 connections (postgres; skipped without TEST_DATABASE_URL)',
  () => {
    it(
      'answers every request with a valid envelope and an expected code, keeps every acknowledged write, and holds memory flat',
      { timeout: 300_000 },
      async () => {
        const database = await createPostgresDatabase('soak');
        let server: ServerProcess | undefined;
        try {
          await seedDemoData(database.handle, { customers: CUSTOMERS, seed: 31, asOf: hongKongDay() });
          await runMotRules(database.handle);
          // A generous pool wait: this test is about correctness and leaks under sustained load, and on a
          // shared two-core runner the wait for a connection can approach the 2 s default; shedding has
          // its own test (load-shedding.processes.test.ts). The figures show how many requests took longer.
          server = await startServerProcess({
            env: { DATABASE_URL: database.url },
            tuning: { databasePoolWaitMs: 10_000 },
            memoryProbeMs: SAMPLE_EVERY_MS,
          });
          const baseUrl = server.baseUrl;

          const { customers: customersByStaff, pendingEvents: eventsByStaff } = await staffWorkload(database.handle);
          const userids = DEMO_STAFF.map((member) => member.userid);
          const sessions = new Map<string, SignedIn>();
          for (const userid of userids) sessions.set(userid, await signInAs(baseUrl, userid));
          const writersPerStaff = CONNECTIONS / userids.length;
          const workers: Worker[] = Array.from({ length: CONNECTIONS }, (_, index) => {
            const userid = userids[index % userids.length]!;
            const slot = Math.floor(index / userids.length);
            const customers = customersByStaff.get(userid) ?? [];
            const contended = customers.slice(0, CONTENDED_PER_STAFF);
            const ownCustomers = customers.slice(CONTENDED_PER_STAFF).filter((_, position) => position % writersPerStaff === slot);
            const ownEvents = (eventsByStaff.get(userid) ?? []).filter((_, position) => position % writersPerStaff === slot);
            return { index, api: apiClient(baseUrl, sessions.get(userid)), userid, customers, ownCustomers, contended, ownEvents };
          });
          for (const worker of workers) expect(worker.ownCustomers.length, worker.userid).toBeGreaterThan(10);

          const latencies: number[] = [];
          const failures: string[] = [];
          const countsByEndpoint = new Map<string, number>();
          const edits: AcknowledgedEdit[] = [];
          const handled = new Map<number, { recordId: number; note: string }>();
          let conflicts = 0;

          /** One request; returns the answer when its code is among `expected`, else records a failure. */
          const call = async <E extends Endpoint>(
            worker: Worker,
            endpoint: E,
            input: z.input<E['request']>,
            expected: string[] = [ErrorCode.OK],
          ) => {
            const started = performance.now();
            const outcome: CallOutcome = await callEndpoint(worker.api, endpoint, input);
            latencies.push(performance.now() - started);
            countsByEndpoint.set(endpoint.path, (countsByEndpoint.get(endpoint.path) ?? 0) + 1);
            if (outcome.kind === 'answer' && expected.includes(outcome.code)) return outcome;
            failures.push(`${endpoint.path} ${JSON.stringify(input).slice(0, 120)} → ${JSON.stringify(outcome).slice(0, 300)}`);
            return undefined;
          };

          const editProfile = async (worker: Worker, customerId: number, contended: boolean, serial: number) => {
            const current = await call(worker, getBaseInfo, { customerId });
            if (!current) return;
            const remark = `soak w${worker.index} #${serial}`;
            const version = (current.data as { version: number }).version;
            const answer = await call(
              worker,
              updateProfile,
              { customerId, version, remark },
              contended ? [ErrorCode.OK, ErrorCode.CONFLICT] : [ErrorCode.OK],
            );
            if (answer?.code === ErrorCode.OK) edits.push({ customerId, remark, version: (answer.data as { version: number }).version });
            else if (answer) conflicts += 1;
          };

          const operations: Array<[weight: number, run: (worker: Worker, serial: number) => Promise<unknown>]> = [
            [
              15,
              (worker) =>
                call(worker, searchCustomers, {
                  keyword: pick(['', 'chan', 'wong', 'lee', '9', 'li']) || undefined,
                  sortBy: pick(['totalAssets', 'openDate', 'lastTrade'] as const),
                  pageNum: 1 + Math.floor(Math.random() * 5),
                  pageSize: 20,
                }),
            ],
            [8, (worker) => call(worker, statCustomers, pick([{}, { statuses: ['active' as const] }, { kycBound: false }]))],
            [
              25,
              (worker) => {
                const customerId = pick(worker.customers);
                return call(
                  worker,
                  pick<Endpoint>([getProfile, getBaseInfo, getAsset, getHolding, getTrade, getDynamic, getWithdrawalDeposit, getTransfer]),
                  {
                    customerId,
                  },
                );
              },
            ],
            [12, (worker) => call(worker, pick<Endpoint>([getTodoTaskCount, getTodoClients, getTodoDates]), {})],
            // A contact the worker does not follow answers 091003, as for one that exists nowhere (ADR 0015).
            [
              5,
              (worker) =>
                call(worker, hasKyc, { externalUserId: pick(DEMO_EXTERNAL_CONTACTS).externalUserId }, [
                  ErrorCode.OK,
                  ErrorCode.KYC_NOT_FOLLOWING,
                ]),
            ],
            [20, (worker, serial) => editProfile(worker, pick(worker.ownCustomers), false, serial)],
            [5, (worker, serial) => editProfile(worker, pick(worker.contended), true, serial)],
            [
              10,
              async (worker, serial) => {
                const eventId = worker.ownEvents.pop();
                if (eventId === undefined) return call(worker, getTodoTaskCount, {});
                const note = `soak w${worker.index} #${serial}`;
                const answer = await call(worker, handleEvent, { eventId, channel: 'phone', note });
                if (answer) handled.set(eventId, { recordId: (answer.data as { recordId: number }).recordId, note });
              },
            ],
          ];
          const totalWeight = operations.reduce((sum, [weight]) => sum + weight, 0);
          const chooseOperation = () => {
            let roll = Math.random() * totalWeight;
            for (const [weight, run] of operations) if ((roll -= weight) < 0) return run;
            return operations[0]![1];
          };

          const memory: Array<{ atMs: number; rss: number }> = [];
          const startedAt = performance.now();
          const deadline = startedAt + SOAK_MS;
          const sampler = setInterval(() => memory.push({ atMs: performance.now() - startedAt, rss: server!.rssBytes() }), SAMPLE_EVERY_MS);
          memory.push({ atMs: 0, rss: server.rssBytes() });
          const probeFrom = Date.now();
          const cpuBefore = server.cpuSeconds();
          const ownCpuBefore = process.cpuUsage();
          await Promise.all(
            workers.map(async (worker) => {
              for (let serial = 0; performance.now() < deadline; serial += 1) await chooseOperation()(worker, serial);
            }),
          );
          const elapsedS = (performance.now() - startedAt) / 1000;
          const serverCpuS = server.cpuSeconds() - cpuBefore;
          const ownCpu = process.cpuUsage(ownCpuBefore);
          const generatorCpuS = (ownCpu.user + ownCpu.system) / 1e6;
          clearInterval(sampler);
          memory.push({ atMs: performance.now() - startedAt, rss: server.rssBytes() });
          await sleep(SAMPLE_EVERY_MS + 200);
          const heap = server.memorySamples().filter((sample) => sample.at >= probeFrom);

          const sorted = [...latencies].sort((a, b) => a - b);
          const peakRss = Math.max(...memory.map((sample) => sample.rss));
          const afterWarmUp = memory.filter((sample) => sample.atMs >= WARM_UP_MS);
          const heapAfterWarmUp = heap.filter((sample) => sample.at - probeFrom >= WARM_UP_MS && sample.at - probeFrom <= SOAK_MS);
          const rssGrowth = afterWarmUp.at(-1)!.rss - afterWarmUp[0]!.rss;
          const heapGrowth = heapAfterWarmUp.at(-1)!.heapUsed - heapAfterWarmUp[0]!.heapUsed;
          console.info(
            [
              `soak: ${latencies.length} requests in ${elapsedS.toFixed(1)} s at ${CONNECTIONS} connections = ${(latencies.length / elapsedS).toFixed(0)} req/s`,
              `  server CPU ${serverCpuS.toFixed(1)} s (${((serverCpuS / elapsedS) * 100).toFixed(0)}% of one core), load generator (this process) ${generatorCpuS.toFixed(1)} s; machine load average at end ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`,
              `  latency p50 ${percentile(sorted, 0.5).toFixed(1)} ms, p95 ${percentile(sorted, 0.95).toFixed(1)} ms, p99 ${percentile(sorted, 0.99).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(0)} ms; ${sorted.filter((ms) => ms > 2000).length} took over 2 s`,
              `  writes acknowledged: ${edits.length} profile edits (${conflicts} answered 090409 on contended profiles), ${handled.size} MOT events handled`,
              `  RSS start ${megabytes(memory[0]!.rss)}, peak ${megabytes(peakRss)}, end ${megabytes(memory.at(-1)!.rss)}; growth over the last 40 s ${megabytes(rssGrowth)}`,
              `  live heap (after GC) at 20 s ${megabytes(heapAfterWarmUp[0]!.heapUsed)}, end ${megabytes(heapAfterWarmUp.at(-1)!.heapUsed)}; growth ${megabytes(heapGrowth)}`,
              `  heap samples: ${heapAfterWarmUp.map((sample) => (sample.heapUsed / 1048576).toFixed(1)).join(' ')}`,
              `  RSS samples: ${memory.map((sample) => (sample.rss / 1048576).toFixed(0)).join(' ')}`,
              `  by endpoint: ${[...countsByEndpoint].map(([path, count]) => `${path.replace('/api/', '')} ${count}`).join(', ')}`,
            ].join('\n'),
          );

          expect(failures.slice(0, 10), `${failures.length} failed requests`).toEqual([]);
          expect(server.child.exitCode).toBeNull();
          expect(edits.length).toBeGreaterThan(0);
          expect(handled.size).toBeGreaterThan(0);
          expect(heapGrowth).toBeLessThan(HEAP_GROWTH_LIMIT);
          expect(rssGrowth).toBeLessThan(RSS_GROWTH_LIMIT);

          // Every acknowledged write is there: per profile, the acknowledged edit with the highest version.
          const latestEdit = new Map<number, AcknowledgedEdit>();
          for (const edit of edits)
            if ((latestEdit.get(edit.customerId)?.version ?? 0) < edit.version) latestEdit.set(edit.customerId, edit);
          const stored = await database.handle.query<{ id: number; remark: string | null; version: number }>(
            'select id::int as id, remark, version from customer where id = any($1::bigint[])',
            [[...latestEdit.keys()]],
          );
          expect(
            stored
              .map((row) => ({ customerId: row.id, remark: row.remark, version: row.version }))
              .sort((a, b) => a.customerId - b.customerId),
          ).toEqual([...latestEdit.values()].sort((a, b) => a.customerId - b.customerId));
          const records = await database.handle.query<{ eventId: number; recordId: number; note: string; status: string }>(
            `select e.id::int as "eventId", r.id::int as "recordId", r.note, e.status
           from mot_event e join contact_record_event l on l.mot_event_id = e.id join contact_record r on r.id = l.record_id where e.id = any($1::bigint[])`,
            [[...handled.keys()]],
          );
          expect(records.sort((a, b) => a.eventId - b.eventId)).toEqual(
            [...handled].map(([eventId, record]) => ({ eventId, ...record, status: 'handled' })).sort((a, b) => a.eventId - b.eventId),
          );
        } finally {
          await server?.stop();
          await database.drop();
        }
      },
    );
  },
);
