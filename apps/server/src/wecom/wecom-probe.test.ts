import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildEmulatorApp, type EmulatorState } from '@broker/wecom-emulator';
import { BUILT_IN_CORP } from '../corps';
import { buildApp } from '../app';
import { makeEnv } from '../env';
import { healthDetailHeaders, testDatabases, TEST_HEALTH_DETAIL_TOKEN } from '../testing';
import type { DatabaseHandle } from '../db/client';
import type { CorpConfigEntry } from '../corps';

const CORP = BUILT_IN_CORP;
const agents = CORP.agents;

/**
 * Issue 19.3: a start-up probe checks each configured app (gettoken, agent/get, and for khzl one
 * 客户联系 call) and logs one line per app — ok, or the named problem and the admin setting that fixes
 * it. Here the server runs in real mode against a WeCom (the emulator, standalone) whose admin got
 * things wrong, as a bank's first deployment would.
 */
for (const engine of testDatabases()) {
  describe(`start-up WeCom probe (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let wecom: FastifyInstance;
    let emulated: EmulatorState;
    let apiBase: string;

    beforeAll(async () => {
      database = await engine.create();
      ({ app: wecom, state: emulated } = await buildEmulatorApp());
      await wecom.listen({ port: 0, host: '127.0.0.1' });
      apiBase = `http://127.0.0.1:${(wecom.server.address() as { port: number }).port}/wecom`;
    });
    afterAll(async () => {
      await wecom?.close();
      await database?.drop();
    });

    /** A replica in real mode with these corps, its log captured; probes once and closes. */
    async function probeWith(corpAgents: CorpConfigEntry['agents']) {
      const logged: { level: number; msg: string; probe?: Record<string, unknown> }[] = [];
      const logStream = new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const line of chunk.toString().split('\n').filter(Boolean)) logged.push(JSON.parse(line) as (typeof logged)[number]);
          done();
        },
      });
      const app = await buildApp({
        env: makeEnv({
          WECOM_MODE: 'real',
          WECOM_API_BASE: apiBase,
          HEALTH_DETAIL_TOKEN: TEST_HEALTH_DETAIL_TOKEN,
          LOG_LEVEL: 'info',
          WEB_DIST_DIR: '',
          SEED_DEMO: 'false',
        }),
        tuning: { motSweepIntervalMs: 0 },
        database,
        ownsDatabase: false,
        logStream,
        corps: [{ code: CORP.code, name: CORP.name, corpId: CORP.corpId, agents: corpAgents }],
      });
      try {
        await app.ready();
        const lines = await app.startWecomProbe(0);
        const readyz = (await app.inject({ url: '/readyz', headers: healthDetailHeaders })).json<{
          status: string;
          wecom: { status: string; agents: unknown[] };
        }>();
        return { lines, readyz, logged: logged.filter((line) => line.probe) };
      } finally {
        await app.close();
      }
    }

    it('names each app’s problem, the setting that fixes it and the address WeCom saw: one line per app', async () => {
      emulated.policies.reset();
      emulated.policies.update(CORP.corpId, agents.khzl.agentId, { customerContact: false });
      emulated.policies.update(CORP.corpId, agents.khgl.agentId, { trustedIps: ['203.0.113.7'] });
      const { lines, readyz, logged } = await probeWith({
        ...agents,
        mot: { agentId: agents.mot.agentId, secret: 'a-secret-reset-since' },
      });

      expect(lines.map((line) => [line.agent, line.problem, line.errcode])).toEqual([
        ['khzl', 'api-forbidden', 48002],
        ['khgl', 'ip-not-trusted', 60020],
        ['mot', 'credentials-invalid', 40001],
      ]);
      expect(lines[0]!.message).toMatch(/^WeCom probe fxhl\/khzl \(agent 1000002\): 48002 api-forbidden: list the app under 客户联系/);
      expect(lines[1]!.message).toMatch(/企业可信IP.*\(WeCom saw this server as 127\.0\.0\.1\)$/);
      expect(lines[2]!.message).toMatch(/credentials-invalid: corpId or the app’s secret in CORPS_FILE is wrong/);
      // One log line per app, at error level, with WeCom's own errmsg.
      expect(logged.map((line) => [line.level, line.msg])).toEqual(lines.map((line) => [50, line.message]));
      expect(logged[1]!.probe).toMatchObject({ errcode: 60020, fromIp: '127.0.0.1' });
      expect(String(logged[1]!.probe!.errmsg)).toMatch(/^not allow to access from your ip, hint: \[\d+\]/);
      expect(readyz.status).toBe('ready');
      expect(readyz.wecom.status).toBe('degraded');
    });

    it('finds what WeCom answers without an errcode: an app nobody can see, an agentId of another app', async () => {
      emulated.policies.reset();
      emulated.policies.update(CORP.corpId, agents.khgl.agentId, { visibleUserIds: [] });
      // khzl's secret with khgl's agentId: the admin copied them from two apps.
      const { lines } = await probeWith({ ...agents, khzl: { agentId: agents.khgl.agentId, secret: agents.khzl.secret } });
      expect(lines.map((line) => [line.agent, line.problem])).toEqual([
        ['khzl', 'agent-mismatch'],
        ['khgl', 'visible-range-empty'],
        ['mot', null],
      ]);
      expect(lines[1]!.message).toMatch(/visible-range-empty: nobody can open the app: add the client managers to its 可见范围/);
    });

    it('a correctly set-up corp: ok for every app, and /readyz says WeCom is ok', async () => {
      emulated.policies.reset();
      const { lines, readyz, logged } = await probeWith(agents);
      expect(lines.map((line) => line.problem)).toEqual([null, null, null]);
      expect(lines[0]!.message).toMatch(
        /^WeCom probe fxhl\/khzl \(agent 1000002\): ok — trusted domain 127\.0\.0\.1:\d+, visible range departments$/,
      );
      expect(logged.every((line) => line.level === 30)).toBe(true);
      expect(readyz.wecom.status).toBe('ok');
    });
  });
}
