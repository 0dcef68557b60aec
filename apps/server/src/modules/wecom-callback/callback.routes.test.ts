import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { encrypt, getSignature } from '@wecom/crypto';
import { contactMeState, ErrorCode, type Envelope } from '@broker/contract';
import { BUILT_IN_CORP } from '../../corps';
import { testDatabases, startTestApp, signInAs, apiClient, type ApiClient, type RunningTestApp } from '../../testing';
import type { DatabaseHandle } from '../../db/client';
import { seedDemoData } from '../../db/seed';
import { auditLog, customers, kycBindings, motEvents, staff, wecomCallbackEvents } from '../../db/schema';

// Emulator contacts: 0001 何国良 is followed by chanwaiman; 0002 谢美仪 by chanwaiman and leekaying.
const HO = 'wmEmu0001HoKwokLeung';
const TSE = 'wmEmu0002TseMeiYee';
const CORP_ID = BUILT_IN_CORP.corpId;
const { token: TOKEN, encodingAesKey: AES_KEY } = BUILT_IN_CORP.callback;

interface Delivered {
  status: number;
  body: string;
  request: { query: Record<string, string>; body: string };
}

/** A callback signed and sealed by hand (what an attacker or a mis-configured corp would send). */
function sealed(message: string, options: { token?: string; key?: string; receiveId?: string; timestamp?: number } = {}) {
  const ciphertext = encrypt(options.key ?? AES_KEY, message, options.receiveId ?? CORP_ID);
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const nonce = 'n0nce42';
  return { ciphertext, query: { msg_signature: getSignature(options.token ?? TOKEN, timestamp, nonce, ciphertext), timestamp, nonce } };
}

const eventXml = (fields: Record<string, string | number>) =>
  `<xml><ToUserName><![CDATA[${CORP_ID}]]></ToUserName><FromUserName><![CDATA[sys]]></FromUserName><MsgType><![CDATA[event]]></MsgType><Event><![CDATA[change_external_contact]]></Event>${Object.entries(
    fields,
  )
    .map(([name, value]) => `<${name}>${typeof value === 'number' ? value : `<![CDATA[${value}]]>`}</${name}>`)
    .join('')}</xml>`;

for (const engine of testDatabases()) {
  describe(`WeCom change_external_contact callback (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let server: RunningTestApp;
    let chan: ApiClient;
    let chanCustomers: { id: number; customerNo: string }[];
    let leeCustomer: { id: number; customerNo: string };

    beforeAll(async () => {
      database = await engine.create();
      await seedDemoData(database, { customers: 60, seed: 11, asOf: '2026-11-20' });
      server = await startTestApp(database);
      chan = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'chanwaiman'));
      const customersOf = (userid: string) =>
        database.db
          .select({ id: customers.id, customerNo: customers.customerNo })
          .from(customers)
          .innerJoin(staff, eq(staff.id, customers.staffId))
          .where(eq(staff.wecomUserId, userid))
          .orderBy(customers.id);
      chanCustomers = await customersOf('chanwaiman');
      [leeCustomer] = (await customersOf('leekaying')) as [{ id: number; customerNo: string }];
    });
    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    // Raw: WeCom's callback (signed XML and query) is WeCom's protocol, not an endpoint of the contract.
    const callbackUrl = (corpCode = 'fxhl') => `${server.baseUrl}/api/wecom/callback/${corpCode}`;
    const emulator = async <T>(path: string, body: Record<string, unknown> = {}) => {
      const response = await fetch(`${server.baseUrl}/wecom/__emulator/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status, await response.clone().text()).toBe(200);
      return (await response.json()) as T;
    };
    const follow = (userid: string, externalUserId: string, extra: Record<string, string> = {}) =>
      emulator<{ delivered: Delivered }>('external-contact/add', { userid, externalUserId, ...extra }).then((answer) => answer.delivered);
    const unfollow = (userid: string, externalUserId: string, by: 'customer' | 'member') =>
      emulator<{ delivered: Delivered }>('external-contact/delete', { userid, externalUserId, by }).then((answer) => answer.delivered);
    const post = (query: Record<string, string>, body: string, corpCode = 'fxhl') =>
      fetch(`${callbackUrl(corpCode)}?${new URLSearchParams(query).toString()}`, {
        method: 'POST',
        headers: { 'content-type': 'text/xml' },
        body,
      });
    const outerXml = (ciphertext: string) =>
      `<xml><ToUserName><![CDATA[${CORP_ID}]]></ToUserName><AgentID><![CDATA[1000002]]></AgentID><Encrypt><![CDATA[${ciphertext}]]></Encrypt></xml>`;
    const kycOf = async (externalUserId: string) => (await chan.hasKyc({ externalUserId })).body.data!;
    const bindDirectly = async (externalUserId: string, customerId: number) => {
      const [row] = await database.db.select({ id: staff.id }).from(staff).where(eq(staff.wecomUserId, 'chanwaiman'));
      const [corp] = await database.query<{ id: number }>(`select id from corp where code = 'fxhl'`);
      await database.db.insert(kycBindings).values({ corpId: Number(corp!.id), externalUserId, customerId, boundByStaffId: row!.id });
    };
    const contactRemovedEvents = (customerId: number) =>
      database.db
        .select()
        .from(motEvents)
        .where(and(eq(motEvents.customerId, customerId), eq(motEvents.rule, 'contact_removed')));

    it('answers the admin console URL check with the decrypted echostr, and nothing else', async () => {
      const verified = await emulator<{ ok: boolean; status: number; body: string }>('callback/verify');
      expect(verified).toMatchObject({ ok: true, status: 200 });
      expect(verified.body).toMatch(/^[0-9a-f]{16}$/);

      const { ciphertext, query } = sealed('echo-plaintext');
      const good = await fetch(`${callbackUrl()}?${new URLSearchParams({ ...query, echostr: ciphertext }).toString()}`);
      expect(good.status).toBe(200);
      expect(await good.text()).toBe('echo-plaintext');
    });

    it('refuses a forged, a replayed-late, a foreign and an unknown-corp URL check with a named code', async () => {
      const check = async (query: Record<string, string>, corpCode?: string) => {
        const response = await fetch(`${callbackUrl(corpCode)}?${new URLSearchParams(query).toString()}`);
        return { status: response.status, body: (await response.json()) as Envelope<null> };
      };
      const forged = sealed('x', { token: 'someoneElsesToken' });
      expect(await check({ ...forged.query, echostr: forged.ciphertext })).toMatchObject({
        status: 403,
        body: { code: ErrorCode.WECOM_CALLBACK_SIGNATURE_INVALID },
      });
      const late = sealed('x', { timestamp: Math.floor(Date.now() / 1000) - 3600 });
      expect(await check({ ...late.query, echostr: late.ciphertext })).toMatchObject({
        status: 400,
        body: { code: ErrorCode.WECOM_CALLBACK_EXPIRED },
      });
      const foreign = sealed('x', { receiveId: 'wwSomeOtherCorp' });
      expect(await check({ ...foreign.query, echostr: foreign.ciphertext })).toMatchObject({
        status: 400,
        body: { code: ErrorCode.WECOM_CALLBACK_UNDECRYPTABLE },
      });
      const ok = sealed('x');
      expect(await check({ ...ok.query, echostr: ok.ciphertext }, 'nosuchcorp')).toMatchObject({
        status: 404,
        body: { code: ErrorCode.WECOM_CALLBACK_NOT_CONFIGURED },
      });
      expect((await check({ ...ok.query })).body.code).toBe(ErrorCode.VALIDATION);
    });

    it('a forged or malformed event changes nothing', async () => {
      await bindDirectly(TSE, chanCustomers[5]!.id);
      const event = eventXml({
        CreateTime: Math.floor(Date.now() / 1000),
        ChangeType: 'del_follow_user',
        UserID: 'chanwaiman',
        ExternalUserID: TSE,
      });
      const forged = sealed(event, { token: 'guessedToken' });
      const refused = await post(forged.query, outerXml(forged.ciphertext));
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as Envelope<null>).code).toBe(ErrorCode.WECOM_CALLBACK_SIGNATURE_INVALID);

      const doctype = sealed(event);
      const entity = await post(doctype.query, `<!DOCTYPE xml [<!ENTITY x "y">]>${outerXml(doctype.ciphertext)}`);
      expect(entity.status).toBe(400);
      expect(((await entity.json()) as Envelope<null>).msg).toContain('body: must not declare a DOCTYPE');
      const noEncrypt = await post(doctype.query, '<xml><ToUserName>x</ToUserName></xml>');
      expect(((await noEncrypt.json()) as Envelope<null>).msg).toMatch(/^body\.Encrypt: /);

      expect(await database.db.select().from(wecomCallbackEvents)).toEqual([]);
      expect((await kycOf(TSE)).binding?.stale).toBeNull();
    });

    it('an event whose CreateTime is not now (outside the replay window, or beyond any date) is 093004; one not in digits is 090400', async () => {
      const now = Math.floor(Date.now() / 1000);
      const sendEvent = async (createTime: string) => {
        const { query, ciphertext } = sealed(
          eventXml({ CreateTime: createTime, ChangeType: 'del_follow_user', UserID: 'chanwaiman', ExternalUserID: TSE }),
        );
        const answer = await post(query, outerXml(ciphertext));
        return { status: answer.status, body: (await answer.json()) as Envelope<null> };
      };
      for (const createTime of [String(now - 301), String(now + 301), '0', '99999999999999', '9999999999999999']) {
        const answer = await sendEvent(createTime);
        expect(answer.status, `${createTime}: ${JSON.stringify(answer.body)}`).toBe(400);
        expect(answer.body.code).toBe(ErrorCode.WECOM_CALLBACK_EXPIRED);
        expect(answer.body.msg).toMatch(/^Encrypt\.CreateTime: \d+ s away from this server's clock \(at most 300 s\)/);
      }
      for (const createTime of ['1e3', `${now}.0`, ` ${now}`, '-5', '', '99999999999999999999']) {
        const answer = await sendEvent(createTime);
        expect(answer.status, `${createTime}: ${JSON.stringify(answer.body)}`).toBe(400);
        expect(answer.body).toMatchObject({ code: ErrorCode.VALIDATION, msg: expect.stringMatching(/^Encrypt\.CreateTime: /) });
      }
      expect(await database.db.select().from(wecomCallbackEvents).where(eq(wecomCallbackEvents.externalUserId, TSE))).toEqual([]);
      expect((await kycOf(TSE)).binding?.stale).toBeNull();
    });

    it('the customer deletes their manager: the binding turns stale, the manager gets an MOT event, once however often WeCom retries', async () => {
      const customer = chanCustomers[0]!;
      await bindDirectly(HO, customer.id);
      const delivered = await unfollow('chanwaiman', HO, 'customer');
      expect(delivered).toMatchObject({ status: 200, body: 'success' });

      const status = await kycOf(HO);
      expect(status.bound).toBe(true);
      expect(status.binding?.stale).toMatchObject({ reason: 'del_follow_user' });
      const profile = await chan.getProfile({ customerId: customer.id });
      expect(profile.body.data).toMatchObject({
        kycBound: true,
        kycStale: true,
      });
      const [event, ...more] = await contactRemovedEvents(customer.id);
      expect(more).toEqual([]);
      expect(event).toMatchObject({
        status: 'new',
        facts: { changeType: 'del_follow_user', externalUserId: HO, wecomUserId: 'chanwaiman' },
      });

      // WeCom's retry (same signature, timestamp and nonce) and a hand replay: acknowledged, not applied again.
      const replayed = await emulator<{ delivered: Delivered }>('callback/replay');
      expect(replayed.delivered).toMatchObject({ status: 200, body: 'success' });
      expect(await contactRemovedEvents(customer.id)).toHaveLength(1);
      const stale = await database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'kyc.stale'), eq(auditLog.entityId, HO)));
      expect(stale).toHaveLength(1);
      const recorded = await database.db.select().from(wecomCallbackEvents).where(eq(wecomCallbackEvents.externalUserId, HO));
      expect(recorded.map((row) => row.outcome)).toEqual(['marked_stale']);
    });

    it('the customer adds the manager again: the binding heals; an older deletion delivered late does not undo it', async () => {
      const before = await database.db.select().from(wecomCallbackEvents).where(eq(wecomCallbackEvents.externalUserId, HO));
      await follow('chanwaiman', HO);
      expect((await kycOf(HO)).binding?.stale).toBeNull();
      // A deletion older than the re-add, delivered after it (a network delay): it must not undo the heal.
      const lateDeletion = before[0]!;
      const old = sealed(
        eventXml({
          CreateTime: Math.floor(lateDeletion.occurredAt.getTime() / 1000) - 1,
          ChangeType: 'del_follow_user',
          UserID: 'chanwaiman',
          ExternalUserID: HO,
        }),
      );
      expect((await post(old.query, outerXml(old.ciphertext))).status).toBe(200);
      expect((await kycOf(HO)).binding?.stale).toBeNull();
      const outcomes = (await database.db.select().from(wecomCallbackEvents).where(eq(wecomCallbackEvents.externalUserId, HO))).map(
        (row) => row.outcome,
      );
      expect(outcomes.sort()).toEqual(['healed', 'marked_stale', 'out_of_order']);
    });

    it('the manager deletes the customer: stale with its own reason', async () => {
      const delivered = await unfollow('chanwaiman', HO, 'member');
      expect(delivered.body).toBe('success');
      expect((await kycOf(HO)).binding?.stale).toMatchObject({ reason: 'del_external_contact' });
      expect(await contactRemovedEvents(chanCustomers[0]!.id)).toHaveLength(2);
    });

    it('another follower parting with a bound contact leaves the binding alone', async () => {
      // 谢美仪 (bound above to a client of chanwaiman) is also followed by leekaying, who deletes her.
      await unfollow('leekaying', TSE, 'member');
      expect((await kycOf(TSE)).binding?.stale).toBeNull();
      const [row] = await database.db.select().from(wecomCallbackEvents).where(eq(wecomCallbackEvents.wecomUserId, 'leekaying'));
      expect(row?.outcome).toBe('not_the_manager');
    });

    it('「联系我」: a new contact whose State names one of the manager’s unbound customers is bound to that customer', async () => {
      const customer = chanCustomers[1]!;
      const delivered = await follow('chanwaiman', 'wmQrNewCustomer01', { name: '新客户', state: contactMeState(customer.customerNo) });
      expect(delivered.body).toBe('success');
      const status = await kycOf('wmQrNewCustomer01');
      expect(status).toMatchObject({ bound: true, ownCustomer: true, binding: { customerId: customer.id, stale: null } });
      const [audit] = await database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'kyc.bind'), eq(auditLog.entityId, 'wmQrNewCustomer01')));
      expect(audit?.after).toMatchObject({ via: 'contact_me', customerId: customer.id });
    });

    it('「联系我」 binds nothing for another manager’s customer, a customer already bound, an unknown number or no State', async () => {
      const tries: [string, string | undefined, string][] = [
        ['wmQrForeign', contactMeState(leeCustomer.customerNo), 'state_not_own_customer'],
        ['wmQrTaken', contactMeState(chanCustomers[1]!.customerNo), 'customer_already_bound'],
        ['wmQrUnknown', contactMeState('NOSUCH0001'), 'state_unknown_customer'],
        ['wmQrNoState', undefined, 'no_state'],
      ];
      for (const [contact, state, outcome] of tries) {
        await follow('chanwaiman', contact, state ? { state } : {});
        expect((await kycOf(contact)).bound, contact).toBe(false);
        const [row] = await database.db.select().from(wecomCallbackEvents).where(eq(wecomCallbackEvents.externalUserId, contact));
        expect(row?.outcome, contact).toBe(outcome);
      }
    });
  });
}
