import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { endpoints, ErrorCode } from '@broker/contract';
import { buildApp } from '../app';
import { makeEnv } from '../env';
import { loadCorps } from '../corps';
import { apiClient, BrowserJar, exchangeCode, testDatabases, signInAs, startSignInAt } from '../testing';
import type { DatabaseHandle } from '../db/client';
import { seedDemoData } from '../db/seed';
import { hashSessionToken } from '../modules/auth/session-token';
import { loggableUrl } from './log-redaction';

describe('loggableUrl', () => {
  it('keeps the path and allowlisted values, hides every other value', () => {
    expect(loggableUrl('/api/client/customer/getTrade?customerId=12&pageNum=2&dateFrom=2026-01-01')).toBe(
      '/api/client/customer/getTrade?customerId=12&pageNum=2&dateFrom=2026-01-01',
    );
    expect(loggableUrl('/api/auth/login/qywx?code=abc123')).toBe('/api/auth/login/qywx?code=[redacted]');
    expect(loggableUrl('/wecom/cgi-bin/gettoken?corpid=ww1&corpsecret=s3cret')).toBe(
      '/wecom/cgi-bin/gettoken?corpid=[redacted]&corpsecret=[redacted]',
    );
    expect(loggableUrl('/x?keyword=%2B852%209123%204567&newField=91234567')).toBe('/x?keyword=[redacted]&newField=[redacted]');
    expect(loggableUrl('/healthz')).toBe('/healthz');
  });
});

for (const engine of testDatabases()) {
  describe(`nothing personal or secret in the logs (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let app: FastifyInstance;
    let baseUrl: string;
    const logged: string[] = [];
    /** Everything that must never appear in a log line, collected as the test makes it up or learns it. */
    const secrets: string[] = [];

    beforeAll(async () => {
      database = await engine.create();
      await seedDemoData(database, { customers: 40, seed: 4, asOf: '2026-11-20' });
      const logStream = new Writable({
        write(chunk: Buffer, _encoding, done) {
          logged.push(...chunk.toString().split('\n').filter(Boolean));
          done();
        },
      });
      // The most talkative level there is: whatever is hidden here is hidden at `info` too.
      app = await buildApp({
        env: makeEnv({ LOG_LEVEL: 'trace', WEB_DIST_DIR: '', SEED_DEMO: 'false' }),
        tuning: { motSweepIntervalMs: 0 },
        database,
        ownsDatabase: false,
        logStream,
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      baseUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
      for (const corp of loadCorps(undefined)) for (const agent of Object.values(corp.agents)) secrets.push(agent.secret);
    });
    afterAll(async () => {
      await app?.close();
      await database?.drop();
    });

    it('logs requests carrying phone numbers, ID numbers, emails, codes and tokens without any of them', async () => {
      const signedIn = await signInAs(baseUrl, 'chanwaiman');
      secrets.push(signedIn.token);
      const api = apiClient(baseUrl, signedIn);
      const [customer] = await database.query<{ id: number; phone: string; phoneDigits: string; email: string; version: number }>(
        `select c.id::float8 as id, c.phone, c.phone_digits as "phoneDigits", c.email, c.version from customer c join staff s on s.id = c.staff_id
          where s.wecom_user_id = 'chanwaiman' and c.phone is not null and c.email is not null order by c.id limit 1`,
      );
      expect(customer).toBeDefined();
      const [newPhone, newEmail, fullIdNumber, oauthCode] = ['+852 6789 0123', 'leak.check@example.com', 'Z987654(3)', 'oauth-code-9f8e7d'];
      secrets.push(
        customer!.phone,
        customer!.phoneDigits,
        customer!.email,
        newPhone,
        '67890123',
        newEmail,
        fullIdNumber,
        'Z987654',
        oauthCode,
      );

      expect((await api.kycSearch({ keyword: customer!.phone })).body.code).toBe('0');
      expect((await api.kycSearch({ keyword: fullIdNumber })).body.code).toBe('0');
      expect((await api.searchCustomers({ keyword: customer!.phoneDigits.slice(-8) })).body.code).toBe('0');
      const edited = (
        await api.updateProfile({
          customerId: customer!.id,
          version: customer!.version,
          phone: newPhone,
          email: newEmail,
        })
      ).body;
      expect(edited.code, edited.msg).toBe('0');
      // A refused edit (bad phone) and a sign-in with a code WeCom does not know: failures log too.
      expect((await api.updateProfile({ customerId: customer!.id, version: 1, phone: '12345678901234' })).body.code).not.toBe('0');
      // A sign-in's state and both cookies (the sign-in's and the browser binding) are secrets too.
      const jar = new BrowserJar();
      const state = (await startSignInAt(baseUrl, { jar })).body.data!.state;
      secrets.push(state, signedIn.jar.get('broker_binding')!);
      const login = await exchangeCode(baseUrl, { jar, code: oauthCode, state });
      expect(login.body.code).toBe(ErrorCode.LOGIN_CODE_INVALID);
      // The bearer of a token in a query string (a mistake a client could make) is not logged either.
      await api.raw(endpoints.getDefaultCcy, { query: { token: signedIn.token } });

      // The requests were logged (so the check below looks at real lines)...
      expect(logged.some((line) => line.includes(endpoints.kycSearch.path))).toBe(true);
      expect(logged.some((line) => line.includes('/api/auth/login/qywx?code=[redacted]&state=[redacted]'))).toBe(true);
      expect(logged.some((line) => line.includes('/wecom/cgi-bin/gettoken'))).toBe(true);
      // ...and none of them holds a secret.
      for (const secret of secrets) {
        const leaks = logged.filter((line) => line.includes(secret));
        expect(leaks, `"${secret}" appears in the log`).toEqual([]);
      }
    });

    it('keeps only the SHA-256 of a session token in the database', async () => {
      const { token } = await signInAs(baseUrl, 'leekaying');
      const rows = await database.query<{ token_hash: string }>('select token_hash from auth_session');
      expect(rows.map((row) => row.token_hash)).toContain(hashSessionToken(token));
      const dump = JSON.stringify(await database.query('select * from auth_session'));
      expect(dump).not.toContain(token);
    });
  });
}
