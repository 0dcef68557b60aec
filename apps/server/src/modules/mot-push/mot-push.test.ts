import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addDays, hongKongDay, hongKongInstant } from '@broker/domain';
import { buildEmulatorApp, type EmulatorState } from '@broker/wecom-emulator';
import { BUILT_IN_CORP } from '../../corps';
import { apiClient, signInAs, startTestApp, testDatabases, type RunningTestApp } from '../../testing';
import type { DatabaseHandle } from '../../db/client';
import { seedDemoData } from '../../db/seed';
import { createCredentialStore } from '../../wecom/credential-store';
import { createWecomClient, type WecomCorp } from '../../wecom/wecom-client';
import { runDailyMotSweep, runMotRules } from '../mot';
import { insertMoneyMovement, insertQuietCustomer } from '../mot/mot-test-fixtures';
import { dispatchMotPushes, type SendMessage } from './push-dispatcher';
import { announceSweep, enqueueMotPushes } from './push-outbox';
import { APP_LANGUAGES, ErrorCode, MOT_RULES, type AppLanguage } from '@broker/contract';
import { buildTextcard, CARD_TOP_EVENTS, CARD_WORDS, TEXTCARD_LIMITS, type CardEvent } from './push-card';
import { DEFAULT_QUIET_HOURS } from './quiet-hours';

const TODAY = hongKongDay();
const APP_URL = 'https://broker.example.com';

interface InboxEntry {
  userid: string;
  msgid: string;
  delivered: boolean;
  cut: string[];
  textcard: { title: string; description: string; url: string; btntxt: string };
}

for (const engine of testDatabases()) {
  describe(`MOT push into WeCom (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let emulator: Awaited<ReturnType<typeof buildEmulatorApp>>;
    let state: EmulatorState;
    let corp: WecomCorp & { code: string };
    let send: SendMessage;

    beforeAll(async () => {
      database = await engine.create();
      await seedDemoData(database, { customers: 30, seed: 7, asOf: TODAY, contactRecords: false });
      // Every rule has run once over the demo book: the tests' own events are the only new ones.
      await runMotRules(database, { asOf: TODAY });
      emulator = await buildEmulatorApp();
      state = emulator.state;
      await emulator.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = emulator.app.server.address() as { port: number };
      const wecom = createWecomClient({
        apiBase: () => `http://127.0.0.1:${port}/wecom`,
        credentials: createCredentialStore(database.db),
        sleep: async () => undefined,
      });
      const [row] = await database.query<{ id: number }>(`select id from corp where code = $1`, [BUILT_IN_CORP.code]);
      corp = { id: row!.id, code: BUILT_IN_CORP.code, corpId: BUILT_IN_CORP.corpId, agents: BUILT_IN_CORP.agents };
      send = (target, agentCode, body) => wecom.sendMessage(target, agentCode, body);
    });
    afterAll(async () => {
      await emulator?.app.close();
      await database?.drop();
    });

    beforeEach(async () => {
      // Each test starts with nothing to announce and nothing queued, and an empty WeCom.
      await database.query(`insert into mot_push_event (event_id, push_id) select id, 0 from mot_event on conflict (event_id) do nothing`);
      await database.query(`update mot_push set status = 'skipped' where status in ('pending', 'retry', 'sending')`);
      await database.query(`update staff set mot_push_opt_out = false, language = 'zh-CN'`);
      // Earlier tests' cards lie a day back: the per-member interval starts afresh.
      await database.query(`update mot_push set sent_at = sent_at - interval '1 day' where sent_at is not null`);
      state.inbox.splice(0);
      state.messageFailures.splice(0);
      state.policies.reset();
    });

    const dispatch = (options: Partial<Parameters<typeof dispatchMotPushes>[1]> = {}) =>
      dispatchMotPushes(database, { corps: [corp], send, appUrl: APP_URL, quietHours: null, minIntervalMs: 0, ...options });
    const inboxOf = (userid: string) => state.inbox.filter((message) => message.userid === userid) as unknown as InboxEntry[];
    const namedRows = (card: InboxEntry | undefined) =>
      [...card!.textcard.description.matchAll(/<div class="normal">([^<]*)<\/div>/g)].map((match) => match[1]);
    /** New events for a manager: a customer whose ID expires in `days` days (one event each). */
    const newEvents = async (userid: string, count: number) => {
      for (let index = 0; index < count; index += 1) {
        await insertQuietCustomer(database, TODAY, { id_doc_expiry: addDays(TODAY, 3 + index), name_cn: `推送客户${index}` }, userid);
      }
      await runMotRules(database, { asOf: TODAY, rules: ['id_expiry'] });
    };

    it('sends one card per manager per batch, naming the count and the top events, linked through the mot entry', async () => {
      await newEvents('chanwaiman', 5);
      await newEvents('leekaying', 1);
      const queued = await enqueueMotPushes(database, { reason: 'sweep' });
      expect(queued).toEqual({ cards: 2, events: 6 });
      expect(await dispatch()).toMatchObject({ sent: 2, failed: 0, retried: 0 });

      const [chanCard, ...moreChan] = inboxOf('chanwaiman');
      expect(moreChan).toEqual([]);
      expect(chanCard!.textcard.title).toContain('5 个新事件');
      // Three events named, the rest counted; the client names masked.
      expect(chanCard!.textcard.description.match(/class="normal"/g)).toHaveLength(3);
      expect(chanCard!.textcard.description).toContain('另有 2 个事件');
      expect(chanCard!.textcard.description).toContain(`证件到期 · 推*** · ${TODAY.slice(5)}`);
      expect(chanCard!.textcard.description).not.toContain('推送客户');
      const home = new URL(chanCard!.textcard.url);
      expect(`${home.origin}${home.pathname}`).toBe(`${APP_URL}/mot/home`);
      expect(Object.fromEntries(home.searchParams)).toMatchObject({
        corpCode: 'fxhl',
        agentCode: 'mot',
        agentId: BUILT_IN_CORP.agents.mot.agentId,
        wxAppId: BUILT_IN_CORP.corpId,
      });
      // Within WeCom's limits: nothing was cut.
      expect(chanCard!.cut).toEqual([]);
      expect([...chanCard!.textcard.title].length).toBeLessThanOrEqual(TEXTCARD_LIMITS.title);
      expect([...chanCard!.textcard.description].length).toBeLessThanOrEqual(TEXTCARD_LIMITS.description);

      // One event: the card opens that event.
      const [leeCard] = inboxOf('leekaying');
      const single = new URL(leeCard!.textcard.url);
      expect(single.pathname).toBe('/mot/eventDetail');
      const [event] = await database.query<{ id: number }>(
        `select e.id::float8 as id from mot_event e join staff s on s.id = e.staff_id join mot_push_event pe on pe.event_id = e.id where s.wecom_user_id = 'leekaying' and pe.push_id > 0 order by e.id desc limit 1`,
      );
      expect(single.searchParams.get('eventId')).toBe(String(event!.id));

      // Nothing new: no second card.
      expect(await enqueueMotPushes(database, { reason: 'sweep' })).toEqual({ cards: 0, events: 0 });
      expect(await dispatch()).toMatchObject({ sent: 0 });
      expect(inboxOf('chanwaiman')).toHaveLength(1);
    });

    it('queues the daily sweep’s cards through its announce, before the day counts as done', async () => {
      for (const userid of ['chanwaiman', 'leekaying']) {
        await insertQuietCustomer(database, TODAY, { id_doc_expiry: addDays(TODAY, 4), name_cn: '批次客户' }, userid);
      }
      const failing = () => Promise.reject(new Error('replica died while queueing'));
      await expect(runDailyMotSweep(database, { asOf: TODAY, force: true, announce: failing })).rejects.toThrow('replica died');
      // The day is not done: the next tick runs it again, and its events are still unannounced.
      const outcome = await runDailyMotSweep(database, { asOf: TODAY, announce: announceSweep });
      expect(outcome.status).toBe('ran');
      const [queued] = await database.query<{ cards: number }>(`select count(*)::int as cards from mot_push where status = 'pending'`);
      expect(queued!.cards).toBe(2);
    });

    it('writes each card in its manager’s language (staff.language): en, zh-HK, and zh-CN by default', async () => {
      await database.query(`update staff set language = 'en' where wecom_user_id = 'leekaying'`);
      await database.query(`update staff set language = 'zh-HK' where wecom_user_id = 'zhangmin'`);
      await newEvents('leekaying', 5);
      await newEvents('zhangmin', 4);
      await newEvents('chanwaiman', 1);
      await enqueueMotPushes(database, { reason: 'sweep' });
      expect(await dispatch()).toMatchObject({ sent: 3 });

      const [english] = inboxOf('leekaying');
      expect(english!.textcard.title).toBe('MOT: 5 new events to follow up');
      expect(namedRows(english)[0]).toBe(`ID expiring · 推*** · ${TODAY.slice(5)}`);
      expect(english!.textcard.description).toContain('<div class="highlight">2 more events</div>');
      expect(english!.textcard.btntxt).toBe('View');
      expect(english!.textcard.description).not.toMatch(/[\u4e00-\u9fff]{2}/);

      const [hongKong] = inboxOf('zhangmin');
      expect(hongKong!.textcard.title).toBe('MOT：4 個新事件待跟進');
      expect(namedRows(hongKong)[0]).toBe(`證件到期 · 推*** · ${TODAY.slice(5)}`);
      expect(hongKong!.textcard.description).toContain('另有 1 個事件');
      expect(hongKong!.textcard.btntxt).toBe('查看');

      const [simplified] = inboxOf('chanwaiman');
      expect(simplified!.textcard.title).toBe('MOT：1 个新事件待跟进');
      expect(namedRows(simplified)).toEqual([`证件到期 · 推*** · ${TODAY.slice(5)}`]);
      for (const card of [english, hongKong, simplified]) expect(card!.cut).toEqual([]);
    });

    it('of events that score alike, names the heaviest rule, then the earliest due (the ranked day’s order)', async () => {
      const birthdayIn = (days: number) => `1985-${addDays(TODAY, days).slice(5)}`;
      await insertQuietCustomer(database, TODAY, { birthday: birthdayIn(5), name_cn: '五日后' }, 'wongchishing');
      await insertQuietCustomer(database, TODAY, { birthday: birthdayIn(2), name_cn: '两日后' }, 'wongchishing');
      await insertQuietCustomer(database, TODAY, { birthday: birthdayIn(0), name_cn: '今日' }, 'wongchishing');
      await insertQuietCustomer(database, TODAY, { id_doc_expiry: addDays(TODAY, 9), name_cn: '证件' }, 'wongchishing');
      await runMotRules(database, { asOf: TODAY, rules: ['birthday', 'id_expiry'] });
      await enqueueMotPushes(database, { reason: 'import' });
      await dispatch();
      const [card] = inboxOf('wongchishing');
      const rows = [...card!.textcard.description.matchAll(/<div class="normal">([^<]*)<\/div>/g)].map((match) => match[1]);
      // Clients alike (no assets, never contacted), none overdue: the ID expiry's weight leads; the birthdays score
      // alike, the earliest due first; the one in five days is counted only.
      expect(rows).toEqual([
        `证件到期 · 证* · ${TODAY.slice(5)}`,
        `生日 · 今* · ${TODAY.slice(5)}`,
        `生日 · 两** · ${addDays(TODAY, 2).slice(5)}`,
      ]);
      expect(card!.textcard.description).toContain('另有 1 个事件');
    });

    /**
     * Four new events of wongchishing's, each of its own client (the names' first characters tell them apart on
     * the card): where the due day and the ranked day's score disagree.
     */
    const rankedBatch = async () => {
      const event = async (name: string, assetsHkd: number, contactedDaysAgo: number | null, rule: string, dueDate: string) => {
        const { customerId } = await insertQuietCustomer(database, TODAY, { name_cn: name }, 'wongchishing');
        await database.query('update customer set total_assets_hkd = $2 where id = $1', [customerId, assetsHkd]);
        if (contactedDaysAgo !== null)
          await database.query(
            `insert into contact_record (corp_id, customer_id, staff_id, channel, purpose, note, served_at, locks_at)
             select corp_id, id, staff_id, 'phone', 'service', 'called', now() - make_interval(days => $2), now() + interval '1 day'
               from customer where id = $1`,
            [customerId, contactedDaysAgo],
          );
        await database.query(
          `insert into mot_event (corp_id, rule, customer_id, staff_id, fact_key, due_date, facts)
           select corp_id, $2, id, staff_id, $3, $4::date, '{}'::jsonb from customer where id = $1`,
          [customerId, rule, `push-rank-${customerId}`, dueDate],
        );
      };
      // Default weights: risk 5 × HKD 10 M (× 2) × 1 day overdue (× 1.1) × never contacted (× 2) = 22.
      await event('大户', 10_000_000, null, 'risk_expiry', addDays(TODAY, -1));
      // ID 5 × HKD 10 K (× 1) × 6 days overdue (× 1.6) × never contacted (× 2) = 16: due first, ranked second.
      await event('小户', 10_000, null, 'id_expiry', addDays(TODAY, -6));
      // Concentration 3 × 1 × due today (× 1) × never contacted (× 2) = 6.
      await event('远客', 10_000, null, 'concentration', TODAY);
      // ID 5 × 1 × 1 day overdue (× 1.1) × contacted today (× 1) = 5.5: due before the concentration, ranked after it.
      await event('近客', 10_000, 0, 'id_expiry', addDays(TODAY, -1));
      await enqueueMotPushes(database, { reason: 'import' });
    };
    it('names the events that rank highest by the ranked day’s score (tier, days overdue, last contact), not the earliest due', async () => {
      await rankedBatch();
      expect(await dispatch()).toMatchObject({ sent: 1 });
      const [card, ...more] = inboxOf('wongchishing');
      expect(more).toEqual([]);
      // By due day it would name 小户, 近客, 大户.
      expect(namedRows(card)).toEqual([
        `风险评估到期 · 大* · ${addDays(TODAY, -1).slice(5)}`,
        `证件到期 · 小* · ${addDays(TODAY, -6).slice(5)}`,
        `持仓集中 · 远* · ${TODAY.slice(5)}`,
      ]);
      expect(card!.textcard.description).toContain('另有 1 个事件');
    });

    it('ranks with the corp’s own weights (motRank in the corps file)', async () => {
      await rankedBatch();
      // One tier for all, and a concentration weighing 20: 远客 20 × 2 = 40, 小户 16, 大户 5 × 1.1 × 2 = 11, 近客 5.5.
      const weighted = { ...corp, motRank: { typeWeights: { concentration: 20 }, tiers: [{ minAssetsHkd: 0, factor: 1 }] } };
      expect(await dispatch({ corps: [weighted] })).toMatchObject({ sent: 1 });
      expect(namedRows(inboxOf('wongchishing')[0])).toEqual([
        `持仓集中 · 远* · ${TODAY.slice(5)}`,
        `证件到期 · 小* · ${addDays(TODAY, -6).slice(5)}`,
        `风险评估到期 · 大* · ${addDays(TODAY, -1).slice(5)}`,
      ]);
    });

    it('announces each event exactly once with concurrent triggers and sends each card once with two dispatchers', async () => {
      for (const userid of ['chanwaiman', 'leekaying', 'wongchishing', 'zhangmin']) await newEvents(userid, 2);
      const [first, second] = await Promise.all([
        enqueueMotPushes(database, { reason: 'sweep' }),
        enqueueMotPushes(database, { reason: 'import' }),
      ]);
      expect(first.events + second.events).toBe(8);
      const [cards] = await database.query<{ n: number }>(`select count(*)::int as n from mot_push where status = 'pending'`);
      expect(cards!.n).toBe(4);
      const results = await Promise.all([dispatch({ owner: 'replica-a', batchSize: 1 }), dispatch({ owner: 'replica-b', batchSize: 1 })]);
      expect(results[0].sent + results[1].sent).toBe(4);
      for (const userid of ['chanwaiman', 'leekaying', 'wongchishing', 'zhangmin']) expect(inboxOf(userid)).toHaveLength(1);
    });

    it('retries after a WeCom error, with back-off, and sends once', async () => {
      await newEvents('chanwaiman', 1);
      await enqueueMotPushes(database, { reason: 'sweep' });
      state.messageFailures.push(45033);
      expect(await dispatch()).toMatchObject({ retried: 1, sent: 0 });
      const [waiting] = await database.query<{ status: string; wait: number; last_error: string }>(
        `select status, extract(epoch from not_before - now())::float8 as wait, last_error from mot_push where status = 'retry'`,
      );
      expect(waiting).toMatchObject({ status: 'retry', last_error: expect.stringContaining('45033') });
      expect(waiting!.wait).toBeGreaterThan(10);
      // Not due yet: nothing is sent.
      expect(await dispatch()).toMatchObject({ sent: 0, retried: 0 });
      expect(await dispatch({ now: () => Date.now() + 3_600_000 })).toMatchObject({ sent: 1 });
      expect(inboxOf('chanwaiman')).toHaveLength(1);
    });

    it('a send whose answer is lost is resent unchanged, and WeCom’s duplicate check keeps it to one card', async () => {
      await newEvents('leekaying', 1);
      await enqueueMotPushes(database, { reason: 'threshold' });
      const before = state.stats.messagesDeduplicated;
      // WeCom takes the message, but the answer never arrives (a timeout, a replica dying after the send).
      const lostAnswer: SendMessage = async (...args) => {
        await send(...args);
        throw new Error('socket hang up');
      };
      expect(await dispatch({ send: lostAnswer })).toMatchObject({ retried: 1 });
      expect(await dispatch({ now: () => Date.now() + 3_600_000 })).toMatchObject({ sent: 1 });
      expect(inboxOf('leekaying')).toHaveLength(1);
      expect(state.stats.messagesDeduplicated).toBe(before + 1);
      const [row] = await database.query<{ attempts: number; maybe_delivered: boolean }>(
        `select attempts, maybe_delivered from mot_push p join staff s on s.id = p.staff_id where s.wecom_user_id = 'leekaying' and p.status = 'sent' order by p.id desc limit 1`,
      );
      expect(row).toEqual({ attempts: 2, maybe_delivered: true });
    });

    it('a card claimed by a replica that died is taken over after its lease', async () => {
      await newEvents('zhangmin', 1);
      await enqueueMotPushes(database, { reason: 'sweep' });
      const hang: SendMessage = () => new Promise(() => undefined);
      void dispatch({ send: hang, owner: 'dead-replica', leaseMs: 60_000 });
      // The dead replica has claimed the card and stored its body, then hangs in the send.
      for (let waited = 0; waited < 20_000; waited += 50) {
        const [row] = await database.query<{ attempts: number }>(
          `select attempts from mot_push where claimed_by = 'dead-replica' and status = 'sending'`,
        );
        if (row?.attempts === 1) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // Still leased: another replica leaves it alone.
      expect(await dispatch({ owner: 'live-replica' })).toMatchObject({ sent: 0 });
      expect(await dispatch({ owner: 'live-replica', now: () => Date.now() + 120_000 })).toMatchObject({ sent: 1 });
      expect(inboxOf('zhangmin')).toHaveLength(1);
    });

    it('sends nothing in quiet hours and everything queued once they end (deferred, not dropped)', async () => {
      await newEvents('chanwaiman', 2);
      await enqueueMotPushes(database, { reason: 'sweep' });
      const tomorrow = addDays(hongKongDay(), 1);
      const lateEvening = hongKongInstant(tomorrow, '22:30')!;
      const earlyMorning = hongKongInstant(addDays(tomorrow, 1), '07:59')!;
      const morning = hongKongInstant(addDays(tomorrow, 1), '08:00')!;
      const quiet = { quietHours: DEFAULT_QUIET_HOURS };
      expect(await dispatch({ ...quiet, now: () => lateEvening })).toMatchObject({ sent: 0 });
      expect(await dispatch({ ...quiet, now: () => earlyMorning })).toMatchObject({ sent: 0 });
      expect(inboxOf('chanwaiman')).toHaveLength(0);
      expect(await dispatch({ ...quiet, now: () => morning })).toMatchObject({ sent: 1 });
      expect(inboxOf('chanwaiman')).toHaveLength(1);
    });

    it('a manager who opted out gets no card, and their events are not held for later', async () => {
      await database.query(`update staff set mot_push_opt_out = true where wecom_user_id = 'leekaying'`);
      await newEvents('leekaying', 2);
      await newEvents('chanwaiman', 1);
      expect(await enqueueMotPushes(database, { reason: 'sweep' })).toEqual({ cards: 1, events: 1 });
      await dispatch();
      expect(inboxOf('leekaying')).toHaveLength(0);
      const [held] = await database.query<{ n: number }>(
        `select count(*)::int as n from mot_event e join staff s on s.id = e.staff_id where s.wecom_user_id = 'leekaying' and not exists (select 1 from mot_push_event pe where pe.event_id = e.id)`,
      );
      expect(held!.n).toBe(0);
      // Opting back in announces what is new from then on only.
      await database.query(`update staff set mot_push_opt_out = false where wecom_user_id = 'leekaying'`);
      expect(await enqueueMotPushes(database, { reason: 'sweep' })).toEqual({ cards: 0, events: 0 });
    });

    it('at most one card per member per interval: later events join the waiting card', async () => {
      await newEvents('wongchishing', 1);
      await enqueueMotPushes(database, { reason: 'sweep' });
      expect(await dispatch({ minIntervalMs: 15 * 60_000 })).toMatchObject({ sent: 1 });
      await newEvents('wongchishing', 1);
      await enqueueMotPushes(database, { reason: 'import' });
      await newEvents('wongchishing', 1);
      await enqueueMotPushes(database, { reason: 'import' });
      expect(await dispatch({ minIntervalMs: 15 * 60_000 })).toMatchObject({ sent: 0, deferred: 1 });
      expect(await dispatch({ minIntervalMs: 15 * 60_000, now: () => Date.now() + 16 * 60_000 })).toMatchObject({ sent: 1 });
      const cards = inboxOf('wongchishing');
      expect(cards).toHaveLength(2);
      expect(cards[1]!.textcard.title).toContain('2 个新事件');
    });

    it('a member WeCom does not send to (outside the mot app’s visible range) fails for good, others are sent', async () => {
      state.policies.update(corp.corpId, BUILT_IN_CORP.agents.mot.agentId, { visibleUserIds: ['chanwaiman'] });
      await newEvents('chanwaiman', 1);
      await newEvents('zhangmin', 1);
      await enqueueMotPushes(database, { reason: 'sweep' });
      expect(await dispatch()).toMatchObject({ sent: 1, failed: 1 });
      const [failed] = await database.query<{ last_error: string }>(
        `select p.last_error from mot_push p join staff s on s.id = p.staff_id where s.wecom_user_id = 'zhangmin' and p.status = 'failed'`,
      );
      expect(failed!.last_error).toContain('81013');
      expect(await dispatch({ now: () => Date.now() + 3_600_000 })).toMatchObject({ sent: 0, retried: 0 });
    });

    it('a large-money event below the manager’s threshold is not announced until the threshold comes down to it', async () => {
      const customer = await insertQuietCustomer(database, TODAY, { name_cn: '门槛客户' }, 'zhangmin');
      await database.query(`update staff set min_cash_io = 1000000 where wecom_user_id = 'zhangmin'`);
      await insertMoneyMovement(database, customer, { direction: 'withdrawal', currency: 'HKD', amount: 500000, day: TODAY });
      await database.query(`update staff set min_cash_io = 100000 where wecom_user_id = 'zhangmin'`);
      await runMotRules(database, { asOf: TODAY, rules: ['large_withdrawal'] });
      await database.query(`update staff set min_cash_io = 1000000 where wecom_user_id = 'zhangmin'`);
      expect(await enqueueMotPushes(database, { reason: 'threshold', staffId: customer.staffId })).toEqual({ cards: 0, events: 0 });
      await database.query(`update staff set min_cash_io = 100000 where wecom_user_id = 'zhangmin'`);
      expect(await enqueueMotPushes(database, { reason: 'threshold', staffId: customer.staffId })).toEqual({ cards: 1, events: 1 });
      await database.query(`update staff set min_cash_io = 100000`);
    });
  });

  describe(`MOT push setting API (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let server: RunningTestApp;

    beforeAll(async () => {
      database = await engine.create();
      await seedDemoData(database, { customers: 20, seed: 3, asOf: TODAY, contactRecords: false });
      server = await startTestApp(database, { MOT_PUSH_QUIET_HOURS: '21:00-08:00' });
    });
    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    it('reads and sets the opt-out, audited, and setMinCashIO queues the real-time card', async () => {
      const chan = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'chanwaiman', { agentCode: 'mot' }));
      expect((await chan.ok.getMotPushSetting({})).push).toBe(true);
      const off = await chan.ok.setMotPushSetting({ push: false });
      expect(off).toEqual({ push: false, quietHours: { from: '21:00', until: '08:00' } });
      expect((await chan.ok.getMotPushSetting({})).push).toBe(false);
      const [audit] = await database.query<{ before: unknown; after: unknown }>(
        `select before, after from audit_log where action = 'mot.setPush' order by id desc limit 1`,
      );
      expect(audit).toEqual({ before: { motPush: true }, after: { motPush: false } });
      const refused = await chan.call('setMotPushSetting', { push: 'maybe' });
      expect(refused.body.msg).toContain('push');
      await chan.ok.setMotPushSetting({ push: true });

      // Lowering the threshold raises a large withdrawal now: one card for the caller is queued.
      await database.query(`insert into mot_push_event (event_id, push_id) select id, 0 from mot_event on conflict (event_id) do nothing`);
      const customer = await insertQuietCustomer(database, TODAY, { name_cn: '实时客户' }, 'chanwaiman');
      await insertMoneyMovement(database, customer, { direction: 'withdrawal', currency: 'HKD', amount: 2000, day: TODAY });
      await chan.ok.setMinCashIO({ minCashIO: 1000 });
      const [card] = await database.query<{ reason: string; events: number }>(
        `select p.reason, (select count(*)::int from mot_push_event pe where pe.push_id = p.id) as events
           from mot_push p where p.staff_id = $1 and p.status = 'pending'`,
        [customer.staffId],
      );
      expect(card?.reason).toBe('threshold');
      expect(card!.events).toBeGreaterThanOrEqual(1);
    });

    it('keeps the language the app is used in (the cards’ language): set from the “me” sheet and with each sign-in; bad values refused', async () => {
      const languageOf = async (userid: string) =>
        (await database.query<{ language: string }>(`select language from staff where wecom_user_id = $1`, [userid]))[0]!.language;
      expect(await languageOf('leekaying')).toBe('zh-CN');
      const lee = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'leekaying', { agentCode: 'mot' }));
      const audited = async () =>
        (await database.query<{ n: number }>(`select count(*)::int as n from audit_log where action = 'mot.setPush'`))[0]!.n;
      const auditsBefore = await audited();

      // The language alone: the switch and its audit trail are left as they are.
      expect(await lee.ok.setMotPushSetting({ language: 'en' })).toEqual({ push: true, quietHours: { from: '21:00', until: '08:00' } });
      expect(await languageOf('leekaying')).toBe('en');
      expect(await lee.ok.setMotPushSetting({ language: 'zh-HK' })).toMatchObject({ push: true });
      expect(await languageOf('leekaying')).toBe('zh-HK');
      expect(await audited()).toBe(auditsBefore);
      // Both at once.
      expect(await lee.ok.setMotPushSetting({ push: false, language: 'en' })).toMatchObject({ push: false });
      expect(await languageOf('leekaying')).toBe('en');
      expect(await audited()).toBe(auditsBefore + 1);
      await lee.ok.setMotPushSetting({ push: true });
      expect(await languageOf('leekaying')).toBe('en');

      for (const bad of ['fr', 'zh-TW', 'EN', '', 7, null]) {
        const refused = await lee.call('setMotPushSetting', { language: bad });
        expect(refused.body.code, String(bad)).toBe(ErrorCode.VALIDATION);
        expect(refused.body.msg).toContain('body.language: must be zh-CN, zh-HK or en');
      }
      const empty = await lee.call('setMotPushSetting', {});
      expect(empty.body.code).toBe(ErrorCode.VALIDATION);
      expect(empty.body.msg).toContain('must name push, language or both');
      expect(await languageOf('leekaying')).toBe('en');
      // The table holds only the three, whoever writes it.
      await expect(database.query(`update staff set language = 'fr' where wecom_user_id = 'leekaying'`)).rejects.toThrow(
        /staff_language_ck/,
      );

      // A sign-in sends the app's language: kept when it differs; a sign-in without one leaves it.
      await signInAs(server.baseUrl, 'leekaying', { agentCode: 'mot', language: 'zh-HK' });
      expect(await languageOf('leekaying')).toBe('zh-HK');
      await signInAs(server.baseUrl, 'leekaying', { agentCode: 'khzl' });
      expect(await languageOf('leekaying')).toBe('zh-HK');
      await expect(signInAs(server.baseUrl, 'leekaying', { language: 'fr' as AppLanguage })).rejects.toThrow(
        /query\.language: must be zh-CN, zh-HK or en/,
      );
      await signInAs(server.baseUrl, 'leekaying', { language: 'zh-CN' });
      expect(await languageOf('leekaying')).toBe('zh-CN');
    });
  });
}

describe('the card’s words in each language (push-card.ts)', () => {
  const entry = { appUrl: APP_URL, corpCode: 'fxhl', corpId: 'ww-corp', agentId: '1000003' };
  const card = (language: AppLanguage | undefined, events: CardEvent[], count = events.length) =>
    buildTextcard({ pushId: 9_007_199_254_740_991, userid: 'chanwaiman', count, events, entry, today: TODAY, language }).textcard;
  const event = (rule: string, index = 0): CardEvent => ({
    eventId: 9_000_000_000 + index,
    rule,
    customerName: '陳大文先生',
    dueDate: TODAY,
  });

  it('names every rule in every language: none blank, none shared within a language', () => {
    for (const language of APP_LANGUAGES) {
      const labels = MOT_RULES.map((rule) => CARD_WORDS[language].rules[rule]);
      expect(
        labels.every((label) => typeof label === 'string' && label.trim() !== ''),
        language,
      ).toBe(true);
      expect(new Set(labels).size, language).toBe(MOT_RULES.length);
    }
  });

  it('no language given: zh-CN, as before', () => {
    expect(card(undefined, [event('birthday')])).toEqual(card('zh-CN', [event('birthday')]));
    expect(card(undefined, [event('birthday')]).title).toBe('MOT：1 个新事件待跟进');
  });

  it('english counts one event and many', () => {
    expect(card('en', [event('dormant')]).title).toBe('MOT: 1 new event to follow up');
    expect(card('en', [event('dormant'), event('dormant', 1)], 3).description).toContain('<div class="highlight">1 more event</div>');
    expect(card('en', [event('dormant')], 12).description).toContain('<div class="highlight">11 more events</div>');
  });

  it('keeps within WeCom’s limits in every language, its longest labels and counts included (btntxt ≤ 4 characters)', () => {
    for (const language of APP_LANGUAGES) {
      const words = CARD_WORDS[language];
      expect([...words.button].length, `${language} btntxt`).toBeLessThanOrEqual(TEXTCARD_LIMITS.btntxt);
      const longest = [...MOT_RULES].sort((a, b) => [...words.rules[b]].length - [...words.rules[a]].length).slice(0, CARD_TOP_EVENTS);
      const textcard = card(
        language,
        longest.map((rule, index) => event(rule, index)),
        9_999_999,
      );
      expect([...textcard.title].length, `${language} title`).toBeLessThanOrEqual(TEXTCARD_LIMITS.title);
      expect([...textcard.description].length, `${language} description`).toBeLessThanOrEqual(TEXTCARD_LIMITS.description);
      expect(new TextEncoder().encode(textcard.url).length).toBeLessThanOrEqual(TEXTCARD_LIMITS.urlBytes);
      expect(textcard.description.match(/class="normal"/g), language).toHaveLength(CARD_TOP_EVENTS);
      expect(textcard.btntxt).toBe(words.button);
    }
    expect(CARD_WORDS.en.button).toBe('View');
  });
});
