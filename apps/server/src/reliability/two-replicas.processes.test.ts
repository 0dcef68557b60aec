import { describe, expect, it } from 'vitest';
import { ErrorCode, getChannel, hasKyc, signOutEverywhere } from '@broker/contract';
import { DEMO_EXTERNAL_CONTACTS } from '../db/seed/reference-data';
import { signInAs } from '../testing/test-app';
import { apiClient } from '../testing/api-client';
import { startEmulatorProcess, startServerProcess, type EmulatorProcess, type ServerProcess } from '../testing/server-process';
import { callEndpoint, createPostgresDatabase, postgresAdminUrl } from './reliability-fixtures';

interface EmulatorStats {
  gettoken: number;
  externalContactGet: number;
}

const statsOf = async (emulator: EmulatorProcess) =>
  (await (await fetch(`${emulator.wecomBaseUrl}/__emulator/stats`)).json()) as EmulatorStats;

const codeOf = (outcome: Awaited<ReturnType<typeof callEndpoint>>) =>
  outcome.kind === 'answer' ? outcome.code : `${outcome.kind}: ${outcome.problem}`;

/**
 * Two server processes on one PostgreSQL and one WeCom (the standalone emulator: each replica's
 * own mounted emulator would be a different WeCom with its own tokens and codes). That MOT events
 * are created exactly once by racing replicas is proven by modules/mot/mot-sweep.processes.test.ts.
 */
describe.skipIf(!postgresAdminUrl)('two replicas on one PostgreSQL (postgres; skipped without TEST_DATABASE_URL)', () => {
  it(
    'accept each other’s tokens, see a revoked session within moments, and share one WeCom access token',
    { timeout: 120_000 },
    async () => {
      const database = await createPostgresDatabase('replicas');
      const emulator = await startEmulatorProcess();
      const replicas: ServerProcess[] = [];
      try {
        const env = { DATABASE_URL: database.url, WECOM_API_BASE: emulator.wecomBaseUrl };
        replicas.push(...(await Promise.all([startServerProcess({ env }), startServerProcess({ env })])));
        const [a, b] = replicas as [ServerProcess, ServerProcess];
        const wecom = { wecomBaseUrl: emulator.wecomBaseUrl };

        // Signed in on one replica, served by the other, both ways.
        const onA = await signInAs(a.baseUrl, 'chanwaiman', wecom);
        const onB = await signInAs(b.baseUrl, 'leekaying', wecom);
        expect(codeOf(await callEndpoint(apiClient(b.baseUrl, onA), getChannel, {}))).toBe(ErrorCode.OK);
        expect(codeOf(await callEndpoint(apiClient(a.baseUrl, onB), getChannel, {}))).toBe(ErrorCode.OK);
        // Both sign-ins needed the khzl access token; the second replica found the first one's in the database.
        expect((await statsOf(emulator)).gettoken).toBe(1);

        // Signed out everywhere through replica A: refused by both replicas, which had both cached the
        // session, as soon as the change's notification reaches them (ADR 0010, ADR 0012).
        expect(codeOf(await callEndpoint(apiClient(a.baseUrl, onA), getChannel, {}))).toBe(ErrorCode.OK);
        expect(codeOf(await callEndpoint(apiClient(b.baseUrl, onA), getChannel, {}))).toBe(ErrorCode.OK);
        expect(codeOf(await callEndpoint(apiClient(a.baseUrl, onA), signOutEverywhere, {}))).toBe(ErrorCode.OK);
        const revokedAt = performance.now();
        const refusedWithin = async (baseUrl: string) => {
          let code = codeOf(await callEndpoint(apiClient(baseUrl, onA), getChannel, {}));
          while (code !== ErrorCode.LOGIN_INVALID && performance.now() - revokedAt < 2_000) {
            await new Promise((resolve) => setTimeout(resolve, 5));
            code = codeOf(await callEndpoint(apiClient(baseUrl, onA), getChannel, {}));
          }
          return { code, ms: performance.now() - revokedAt };
        };
        const refused = await Promise.all([refusedWithin(a.baseUrl), refusedWithin(b.baseUrl)]);
        console.info(`revocation seen by both replicas within ${Math.round(Math.max(...refused.map((entry) => entry.ms)))} ms`);
        expect(refused.map((entry) => entry.code)).toEqual([ErrorCode.LOGIN_INVALID, ErrorCode.LOGIN_INVALID]);
        expect(codeOf(await callEndpoint(apiClient(b.baseUrl, onB), getChannel, {}))).toBe(ErrorCode.OK);

        // Cold cache on both replicas at the same moment: 2 × 12 requests that each need the access
        // token (WeCom's contact lookup). One gettoken upstream for all of them.
        await database.handle.query('delete from wecom_credential');
        const before = await statsOf(emulator);
        const contact = DEMO_EXTERNAL_CONTACTS.find((entry) => entry.followedBy.includes('leekaying'))!;
        const outcomes = await Promise.all(
          Array.from({ length: 24 }, (_, index) =>
            callEndpoint(apiClient(index % 2 ? a.baseUrl : b.baseUrl, onB), hasKyc, { externalUserId: contact.externalUserId }),
          ),
        );
        expect(outcomes.map(codeOf)).toEqual(Array(24).fill(ErrorCode.OK));
        for (const outcome of outcomes)
          expect((outcome as { data: { contact: unknown } }).data.contact).toMatchObject({ followedByYou: true });
        const after = await statsOf(emulator);
        expect(after.externalContactGet - before.externalContactGet).toBeGreaterThan(0);
        expect(after.gettoken - before.gettoken).toBe(1);
      } finally {
        await Promise.all(replicas.map((replica) => replica.stop()));
        await emulator.stop();
        await database.drop();
      }
    },
  );
});
