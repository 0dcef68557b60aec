import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { ErrorCode, httpStatusOf } from '@broker/contract';
import type { AgentPolicy } from '@broker/wecom-emulator';
import { BUILT_IN_CORP } from '../../corps';
import { testDatabases, startTestApp, signInAs, apiClient, type ApiClient, type RunningTestApp } from '../../testing';
import type { DatabaseHandle } from '../../db/client';
import { seedDemoData } from '../../db/seed';
import { accounts, auditLog, customers, kycBindings, staff } from '../../db/schema';

// Emulator contacts: 0001 is followed by chanwaiman; 0002 by chanwaiman and leekaying; 0003 by leekaying only.
const HO = 'wmEmu0001HoKwokLeung';
const TSE = 'wmEmu0002TseMeiYee';
const LAU = 'wmEmu0003LauChiKeung';
const WANG = 'wmEmu0005WangLei';

for (const engine of testDatabases()) {
  describe(`KYC binding (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let server: RunningTestApp;
    let chan: ApiClient;
    let lee: ApiClient;
    let chanCustomers: (typeof customers.$inferSelect)[];
    let leeCustomer: typeof customers.$inferSelect;

    beforeAll(async () => {
      database = await engine.create();
      await seedDemoData(database, { customers: 60, seed: 11, asOf: '2026-11-20' });
      server = await startTestApp(database);
      chan = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'chanwaiman'));
      lee = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'leekaying'));
      const ownerOf = async (userid: string) =>
        database.db
          .select({ customer: customers })
          .from(customers)
          .innerJoin(staff, eq(staff.id, customers.staffId))
          .where(eq(staff.wecomUserId, userid))
          .orderBy(customers.id)
          .then((rows) => rows.map((row) => row.customer));
      chanCustomers = await ownerOf('chanwaiman');
      leeCustomer = (await ownerOf('leekaying'))[0]!;
      expect(chanCustomers.length).toBeGreaterThanOrEqual(3);
    });
    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    const hasKyc = (caller: ApiClient, externalUserId: string) => caller.ok.hasKyc({ externalUserId });
    const search = (caller: ApiClient, keyword: string) => caller.ok.kycSearch({ keyword });

    it('finds only your own customers, by name, phone, account number and ID tail, with details masked', async () => {
      const target = chanCustomers[0]!;
      const [account] = await database.db.select().from(accounts).where(eq(accounts.customerId, target.id)).limit(1);
      const keywords = [
        target.nameCn.slice(1),
        target.nameEn.split(' ')[0]!.toLowerCase(),
        target.phoneDigits!.slice(-7, -2),
        account!.accountNo,
        target.idDocLast4,
      ];
      for (const keyword of keywords) {
        const result = await search(chan, keyword);
        expect(
          result.list.map((row) => row.customerId),
          keyword,
        ).toContain(target.id);
        expect(
          result.list.every((row) => chanCustomers.some((own) => own.id === row.customerId)),
          keyword,
        ).toBe(true);
      }
      const byName = (await search(chan, target.nameCn)).list.find((row) => row.customerId === target.id)!;
      expect(byName.phone).toMatch(/\*{4}$/);
      expect(byName.phone).not.toBe(target.phone);
      expect(byName.idDoc).toBe(target.idDocMasked);
      expect(JSON.stringify(byName)).not.toContain(target.phoneDigits!);
      // Someone else's customer is invisible even by exact name.
      expect((await search(chan, leeCustomer.nameCn)).list.map((row) => row.customerId)).not.toContain(leeCustomer.id);
      // Wildcards typed by a user are literal.
      expect((await search(chan, '%')).total).toBe(0);
    });

    it('finds what the client list finds for the same keyword, in the list’s order (ADR 0026)', async () => {
      const list = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'chanwaiman', { agentCode: 'khgl' }));
      const listed = async (keyword: string) => {
        const found = await list.ok.searchCustomers({ keyword, pageSize: 50 });
        return { ids: found.list.map((row) => row.customerId), total: found.total };
      };
      const target = chanCustomers[1]!;
      const [account] = await database.db.select().from(accounts).where(eq(accounts.customerId, target.id)).limit(1);
      // Each of these finds the target; the two searches must agree on it and on everything else they list.
      const findingTarget = [
        target.nameCn.slice(0, 1),
        target.nameEn.split(' ')[0]!.slice(0, 3).toLowerCase(),
        target.phoneDigits!.slice(-4),
        account!.accountNo.toLowerCase(),
        target.idDocLast4.toLowerCase(),
      ];
      const others = [
        '12',
        // Many of the book, whose English-name order is not their order by assets.
        'a',
        // Not a phone number: before, KYC searched the digits of any keyword as one.
        `x${target.phoneDigits!.slice(-5)}`,
      ];
      for (const keyword of [...findingTarget, ...others]) {
        const found = await chan.ok.kycSearch({ keyword, pageSize: 50 });
        const ids = found.list.map((row) => row.customerId);
        if (findingTarget.includes(keyword)) expect(ids, keyword).toContain(target.id);
        expect({ ids, total: found.total }, keyword).toEqual(await listed(keyword));
      }
      expect((await chan.ok.kycSearch({ keyword: 'a', pageSize: 50 })).total).toBeGreaterThan(1);
      // An account number finds its holder alone, not also the clients whose phone holds its digits.
      const byAccount = await search(chan, account!.accountNo.toLowerCase());
      expect(byAccount.list.map((row) => row.customerId)).toEqual([target.id]);
      expect(byAccount.list[0]!.accountNos).toContain(account!.accountNo);
    });

    it('binds a contact you follow to your customer, reports it, and audits it', async () => {
      const customer = chanCustomers[0]!;
      expect(await hasKyc(chan, HO)).toEqual({
        bound: false,
        ownCustomer: false,
        binding: null,
        contact: { externalUserId: HO, name: '何国良', followedByYou: true },
      });
      const bound = await chan.ok.kycBind({ externalUserId: HO, customerId: customer.id });
      expect(bound).toMatchObject({ customerId: customer.id, externalUserId: HO });
      const state = await hasKyc(chan, HO);
      expect(state).toMatchObject({
        bound: true,
        ownCustomer: true,
        binding: { customerId: customer.id, customerNo: customer.customerNo, customerNameEn: customer.nameEn },
      });
      expect(state.binding?.phone).toMatch(/\*{4}$/);
      expect((await search(chan, customer.nameCn)).list.find((row) => row.customerId === customer.id)?.boundExternalUserId).toBe(HO);
      const audit = await database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'kyc.bind'), eq(auditLog.entityId, HO)));
      expect(audit).toHaveLength(1);
      expect(audit[0]!.after).toEqual({ externalUserId: HO, customerId: customer.id });
    });

    it('gives each broken rule its own code', async () => {
      const [first, second] = chanCustomers;
      const cases: [string, ApiClient, { externalUserId: string; customerId: number }, string, number][] = [
        [
          'contact already bound (same customer)',
          chan,
          { externalUserId: HO, customerId: first!.id },
          ErrorCode.KYC_CONTACT_ALREADY_BOUND,
          409,
        ],
        [
          'contact already bound (other customer)',
          chan,
          { externalUserId: HO, customerId: second!.id },
          ErrorCode.KYC_CONTACT_ALREADY_BOUND,
          409,
        ],
        ['customer already bound', chan, { externalUserId: TSE, customerId: first!.id }, ErrorCode.KYC_CUSTOMER_ALREADY_BOUND, 409],
        ["another staff member's customer", chan, { externalUserId: TSE, customerId: leeCustomer.id }, ErrorCode.FORBIDDEN, 403],
        ['no such customer', chan, { externalUserId: TSE, customerId: 987_654_321 }, ErrorCode.NOT_FOUND, 404],
        ['a contact you do not follow', chan, { externalUserId: LAU, customerId: second!.id }, ErrorCode.KYC_NOT_FOLLOWING, 403],
        // Exactly as for a contact followed by someone else (ADR 0015: no contact enumeration).
        [
          'a contact WeCom does not know',
          chan,
          { externalUserId: 'wmEmuNobody', customerId: second!.id },
          ErrorCode.KYC_NOT_FOLLOWING,
          403,
        ],
        ['a malformed contact id', chan, { externalUserId: 'bad id!', customerId: second!.id }, ErrorCode.VALIDATION, 400],
      ];
      for (const [label, caller, body, code, status] of cases) {
        const response = await caller.kycBind(body);
        expect(response.body.code, label).toBe(code);
        expect(response.status, label).toBe(status);
        expect(response.body.msg.length, label).toBeGreaterThan(10);
      }
      expect(await database.db.select().from(kycBindings)).toHaveLength(1);
    });

    it('lets only the owner unbind, then forgets the binding', async () => {
      const customer = chanCustomers[1]!;
      expect((await chan.kycBind({ externalUserId: TSE, customerId: customer.id })).body.code).toBe('0');
      // leekaying also follows this contact, but the customer is not theirs.
      expect(await hasKyc(lee, TSE)).toMatchObject({ bound: true, ownCustomer: false, binding: null });
      const stranger = await lee.kycUnbind({ externalUserId: TSE });
      expect(stranger.body.code).toBe(ErrorCode.FORBIDDEN);

      const unbound = await chan.ok.kycUnbind({ externalUserId: TSE });
      expect(unbound.customerId).toBe(customer.id);
      expect(await hasKyc(chan, TSE)).toMatchObject({ bound: false });
      expect((await chan.kycUnbind({ externalUserId: TSE })).body.code).toBe(ErrorCode.KYC_NOT_BOUND);
      const audit = await database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'kyc.unbind'), eq(auditLog.entityId, TSE)));
      expect(audit.map((row) => row.before)).toEqual([{ externalUserId: TSE, customerId: customer.id }]);
      // Unbound, the contact can be bound again (rebinding needs the unbind first).
      expect((await chan.kycBind({ externalUserId: TSE, customerId: chanCustomers[2]!.id })).body.code).toBe('0');
    });

    it("bind and unbind say nothing of a colleague's binding of a contact the caller does not follow", async () => {
      // leekaying binds LAU (whom only leekaying follows) to their own customer.
      expect((await lee.kycBind({ externalUserId: LAU, customerId: leeCustomer.id })).body.code).toBe('0');
      const answerOf = async (path: 'bind' | 'unbind', body: { externalUserId: string; customerId?: number }) => {
        const response = await chan.call(path === 'bind' ? 'kycBind' : 'kycUnbind', body);
        return { status: response.status, code: response.body.code, msg: response.body.msg, data: response.body.data };
      };
      const nobody = 'wmEmuNobodyAtAll';
      // To chanwaiman, LAU's binding and a contact that exists nowhere look the same, for bind and unbind.
      expect(await answerOf('bind', { externalUserId: LAU, customerId: chanCustomers[2]!.id })).toEqual(
        await answerOf('bind', { externalUserId: nobody, customerId: chanCustomers[2]!.id }),
      );
      expect(await answerOf('unbind', { externalUserId: LAU })).toEqual(await answerOf('unbind', { externalUserId: nobody }));
      expect((await answerOf('unbind', { externalUserId: LAU })).code).toBe(ErrorCode.KYC_NOT_FOLLOWING);
      // The binding is untouched, and its owner still ends it.
      expect((await lee.kycUnbind({ externalUserId: LAU })).body.code).toBe('0');
    });

    /** The whole answer, as a client sees it (the request id aside). */
    const hasKycAnswer = async (caller: ApiClient, externalUserId: string) => {
      const { status, body } = await caller.hasKyc({ externalUserId });
      return { status, body };
    };

    it('says nothing about a contact you do not follow: the same answer as for a contact that exists nowhere (issue 17.7)', async () => {
      const nowhere = await hasKycAnswer(chan, 'wmEmuNobody');
      expect(nowhere).toEqual({
        status: 403,
        body: { code: ErrorCode.KYC_NOT_FOLLOWING, msg: 'externalUserId: not one of your WeCom contacts', data: null },
      });
      // 刘志强 is followed only by leekaying: unbound, then bound to leekaying's customer.
      await database.db.delete(kycBindings).where(eq(kycBindings.externalUserId, LAU));
      expect(await hasKycAnswer(chan, LAU)).toEqual(nowhere);
      expect((await lee.kycBind({ externalUserId: LAU, customerId: leeCustomer.id })).body.code).toBe('0');
      expect(await hasKycAnswer(chan, LAU)).toEqual(nowhere);
      // Its follower sees it as theirs.
      expect(await hasKyc(lee, LAU)).toMatchObject({ bound: true, ownCustomer: true, contact: { name: '刘志强', followedByYou: true } });
      await lee.kycUnbind({ externalUserId: LAU });
    });

    it.each<[string, Partial<AgentPolicy>, typeof ErrorCode.WECOM_API_FORBIDDEN | typeof ErrorCode.WECOM_IP_NOT_TRUSTED]>([
      ['48002: the app may not call 客户联系', { customerContact: false }, ErrorCode.WECOM_API_FORBIDDEN],
      ['60020: this server is not a trusted IP', { trustedIps: ['203.0.113.7'] }, ErrorCode.WECOM_IP_NOT_TRUSTED],
    ])('names a WeCom refusal (%s) instead of answering as for an unknown contact', async (_what, change, code) => {
      const emulator = server.app.wecomEmulator!;
      const { corpId, agents } = BUILT_IN_CORP;
      emulator.policies.update(corpId, agents.khzl.agentId, change);
      try {
        const answer = await hasKycAnswer(chan, HO);
        expect(answer.body.code, answer.body.msg).toBe(code);
        expect(answer.status).toBe(httpStatusOf[code]);
        expect(JSON.stringify(answer.body)).not.toMatch(/何国良|followedByYou|errcode/);
      } finally {
        emulator.policies.reset();
      }
      expect(await hasKyc(chan, HO)).toMatchObject({ contact: { name: '何国良' } });
    });

    it('lets exactly one of two simultaneous binds of one contact win', async () => {
      const [a, b] = [chanCustomers[3] ?? chanCustomers[0]!, chanCustomers[4] ?? chanCustomers[1]!];
      await database.db.delete(kycBindings).where(eq(kycBindings.externalUserId, WANG));
      const results = await Promise.all([
        chan.kycBind({ externalUserId: WANG, customerId: a.id }),
        chan.kycBind({ externalUserId: WANG, customerId: b.id }),
      ]);
      const codes = results.map((result) => result.body.code).sort();
      expect(codes.filter((code) => code === '0')).toHaveLength(1);
      expect(await database.db.select().from(kycBindings).where(eq(kycBindings.externalUserId, WANG))).toHaveLength(1);
    });
  });
}
