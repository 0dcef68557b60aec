import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MotRule } from '@broker/contract';
import { testDatabases } from '../../testing';
import type { DatabaseHandle } from '../../db/client';
import { seedDemoData } from '../../db/seed';
import { refreshCustomerSummaries } from '../../db/customer-summary';
import { runMotRules } from './mot-engine';
import { CASH_THRESHOLD_RULES } from './mot-rules';
import { runDailyMotSweep } from './mot-sweep';
import { insertMoneyMovement, insertQuietCustomer } from './mot-test-fixtures';
import { addDays } from '@broker/domain';

const AS_OF = '2026-11-20';

interface EventRow {
  rule: MotRule;
  fact_key: string;
  due_date: string;
  facts: Record<string, unknown>;
}

for (const engine of testDatabases()) {
  describe(`MOT rules (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };

    beforeAll(async () => {
      database = await engine.create();
      await seedDemoData(database, { customers: 40, seed: 5, asOf: AS_OF });
    });
    afterAll(async () => {
      await database?.drop();
    });

    const eventsOf = (customerId: number) =>
      database.query<EventRow>(
        'select rule, fact_key, due_date::text, facts from mot_event where customer_id = $1 order by rule, fact_key',
        [customerId],
      );
    /** Runs every rule for the customer and returns what fired; the second run must add nothing. */
    const sweep = async (customerId: number, asOf = AS_OF) => {
      await runMotRules(database, { asOf, customerIds: [customerId] });
      const again = await runMotRules(database, { asOf, customerIds: [customerId] });
      expect(again.total, 'a second sweep adds nothing').toBe(0);
      return eventsOf(customerId);
    };
    const quiet = (overrides: Parameters<typeof insertQuietCustomer>[2] = {}) => insertQuietCustomer(database, AS_OF, overrides);
    const securityIn = async (currency: string) =>
      (
        await database.query<{ id: number; last_price: number }>(
          'select id, last_price::float8 as last_price from security where currency = $1 order by id limit 1',
          [currency],
        )
      )[0]!;

    it('raises nothing for a quiet customer', async () => {
      const { customerId } = await quiet();
      expect(await sweep(customerId)).toEqual([]);
    });

    it('birthday: fires within 7 days (fact = year), not 8 days out, and across the new year', async () => {
      const soon = await quiet({ birthday: '1990-11-25' });
      expect(await sweep(soon.customerId)).toEqual([
        {
          rule: 'birthday',
          fact_key: '2026',
          due_date: '2026-11-25',
          facts: { birthday: '1990-11-25', date: '2026-11-25', years: 36, lookaheadDays: 7 },
        },
      ]);
      const later = await quiet({ birthday: '1990-11-28' });
      expect(await sweep(later.customerId)).toEqual([]);
      const newYear = await quiet({ birthday: '1990-01-02' });
      expect((await sweep(newYear.customerId, '2026-12-28')).map((event) => [event.rule, event.fact_key, event.due_date])).toEqual([
        ['birthday', '2027', '2027-01-02'],
      ]);
      // Next year's birthday is a new fact.
      await runMotRules(database, { asOf: '2027-11-20', customerIds: [soon.customerId], rules: ['birthday'] });
      expect((await eventsOf(soon.customerId)).map((event) => event.fact_key)).toEqual(['2026', '2027']);
    });

    it('anniversary: fires for a whole year within 7 days, not for a new account or further out', async () => {
      const fifth = await quiet({ open_date: '2021-11-22' });
      expect((await sweep(fifth.customerId)).map((event) => [event.rule, event.fact_key, event.due_date, event.facts.years])).toEqual([
        ['anniversary', '2026', '2026-11-22', 5],
      ]);
      expect(await sweep((await quiet({ open_date: '2021-11-30' })).customerId)).toEqual([]);
      expect(await sweep((await quiet({ open_date: '2026-11-18' })).customerId)).toEqual([]);
    });

    it('large deposit: at or above the staff threshold in HKD equivalent (fact = movement id), recent only', async () => {
      const customer = await quiet();
      const [rate] = await database.query<{ rate: number }>(
        "select rate::float8 as rate from exchange_rate where currency = 'USD' and rate_date <= $1 order by rate_date desc limit 1",
        [addDays(AS_OF, -1)],
      );
      const usdAtThreshold = Math.ceil(100_000 * rate!.rate * 100) / 100;
      const big = await insertMoneyMovement(database, customer, {
        direction: 'deposit',
        currency: 'USD',
        amount: usdAtThreshold,
        day: addDays(AS_OF, -1),
      });
      await insertMoneyMovement(database, customer, { direction: 'deposit', currency: 'HKD', amount: 99_999.99, day: AS_OF });
      await insertMoneyMovement(database, customer, { direction: 'deposit', currency: 'HKD', amount: 900_000, day: addDays(AS_OF, -8) });
      const events = await sweep(customer.customerId);
      expect(events.map((event) => [event.rule, event.fact_key, event.due_date])).toEqual([
        ['large_deposit', String(big), addDays(AS_OF, -1)],
      ]);
      expect(events[0]!.facts).toMatchObject({
        movementId: big,
        currency: 'USD',
        amount: usdAtThreshold,
        thresholdHkd: 100000,
        rate: rate!.rate,
      });
      expect(events[0]!.facts.amountHkd).toBeGreaterThanOrEqual(100_000);
    });

    it("large withdrawal: uses the customer's manager's own threshold", async () => {
      const customer = await quiet();
      await database.query('update staff set min_cash_io = 20000 where id = $1', [customer.staffId]);
      try {
        const id = await insertMoneyMovement(database, customer, { direction: 'withdrawal', currency: 'HKD', amount: 25_000, day: AS_OF });
        await insertMoneyMovement(database, customer, { direction: 'withdrawal', currency: 'HKD', amount: 19_999, day: AS_OF });
        const events = await sweep(customer.customerId);
        expect(events.map((event) => [event.rule, event.fact_key])).toEqual([['large_withdrawal', String(id)]]);
        expect(events[0]!.facts).toMatchObject({ amountHkd: 25000, thresholdHkd: 20000 });
      } finally {
        await database.query('update staff set min_cash_io = 100000 where id = $1', [customer.staffId]);
      }
    });

    it('stock transfer in and out: each recent transfer once (fact = transfer id)', async () => {
      const customer = await quiet({ last_trade_date: addDays(AS_OF, -1) });
      const security = await securityIn('HKD');
      const insert = async (direction: 'in' | 'out', day: string) =>
        (
          await database.query<{ id: number }>(
            `insert into stock_transfer (account_id, customer_id, security_id, direction, quantity, counterparty, occurred_at)
             values ($1, $2, $3, $4, 1000, 'Other Securities Ltd', ($5::date + time '10:00') at time zone 'Asia/Hong_Kong') returning id::float8 as id`,
            [customer.accountId, customer.customerId, security.id, direction, day],
          )
        )[0]!.id;
      const transferIn = await insert('in', addDays(AS_OF, -2));
      const transferOut = await insert('out', AS_OF);
      await insert('in', addDays(AS_OF, -30));
      const events = await sweep(customer.customerId);
      expect(events.map((event) => [event.rule, event.fact_key])).toEqual([
        ['transfer_in', String(transferIn)],
        ['transfer_out', String(transferOut)],
      ]);
      expect(events[0]!.facts).toMatchObject({ quantity: 1000, counterparty: 'Other Securities Ltd' });
    });

    it('dormant: 180 days without a trade, crossed within 30 days (fact = last trade day); trading again and going quiet fires again', async () => {
      const customer = await quiet({ last_trade_date: addDays(AS_OF, -181) });
      expect((await sweep(customer.customerId)).map((event) => [event.rule, event.fact_key, event.facts.daysWithoutTrade])).toEqual([
        ['dormant', addDays(AS_OF, -181), 181],
      ]);
      expect(await sweep((await quiet({ last_trade_date: addDays(AS_OF, -179) })).customerId)).toEqual([]);
      // Long dormant before the look-back (a first sweep over an old book): not news.
      expect(await sweep((await quiet({ last_trade_date: addDays(AS_OF, -211) })).customerId)).toEqual([]);
      await database.query('update customer set last_trade_date = $2 where id = $1', [customer.customerId, addDays(AS_OF, -10)]);
      expect((await sweep(customer.customerId, addDays(AS_OF, 200))).map((event) => event.fact_key)).toEqual([
        addDays(AS_OF, -181),
        addDays(AS_OF, -10),
      ]);
    });

    it('position loss: ≥ 20 % below cost and ≥ HKD 50,000, once a month per security', async () => {
      const security = await securityIn('HKD');
      const hold = async (avgCostFactor: number, quantity: number) => {
        const customer = await quiet();
        await database.query('insert into holding (account_id, customer_id, security_id, quantity, avg_cost) values ($1, $2, $3, $4, $5)', [
          customer.accountId,
          customer.customerId,
          security.id,
          quantity,
          (security.last_price * avgCostFactor).toFixed(4),
        ]);
        return customer;
      };
      const bigLossQuantity = Math.ceil(60_000 / (security.last_price * 0.5));
      const loser = await hold(1.5, bigLossQuantity);
      const events = await sweep(loser.customerId);
      expect(events.map((event) => event.rule)).toEqual(['position_loss']);
      expect(events[0]!.fact_key).toMatch(/@2026-11$/);
      expect(events[0]!.facts).toMatchObject({ quantity: bigLossQuantity, minLossPct: 20, minLossHkd: 50000 });
      expect(events[0]!.facts.lossPct).toBeCloseTo(33.33, 1);
      expect(events[0]!.facts.lossHkd).toBeGreaterThanOrEqual(50_000);
      // Still down a week later: nothing new; next month: raised again.
      expect(await sweep(loser.customerId, '2026-11-27')).toHaveLength(1);
      expect(await sweep(loser.customerId, '2026-12-01')).toHaveLength(2);
      // A small percentage loss, or a big percentage on a small position, does not fire.
      expect(await sweep((await hold(1.1, bigLossQuantity * 10)).customerId)).toEqual([]);
      expect(await sweep((await hold(1.5, 1)).customerId)).toEqual([]);
    });

    it('unfunded: 14 days after opening with no deposit or transfer in', async () => {
      const unfunded = await quiet({ open_date: addDays(AS_OF, -20), last_trade_date: null, risk_assessed_on: addDays(AS_OF, -20) });
      expect((await sweep(unfunded.customerId)).map((event) => [event.rule, event.fact_key, event.facts.daysSinceOpen])).toEqual([
        ['unfunded', addDays(AS_OF, -20), 20],
      ]);
      expect(await sweep((await quiet({ open_date: addDays(AS_OF, -10), last_trade_date: null })).customerId)).toEqual([]);
      const funded = await quiet({ open_date: addDays(AS_OF, -20), last_trade_date: null });
      await insertMoneyMovement(database, funded, { direction: 'deposit', currency: 'HKD', amount: 1000, day: addDays(AS_OF, -19) });
      expect(await sweep(funded.customerId)).toEqual([]);
    });

    it('identity document expiry: within 30 days either side (fact = expiry day)', async () => {
      const expiring = await quiet({ id_doc_expiry: addDays(AS_OF, 10) });
      const events = await sweep(expiring.customerId);
      expect(events.map((event) => [event.rule, event.fact_key])).toEqual([['id_expiry', addDays(AS_OF, 10)]]);
      expect(events[0]!.facts).toMatchObject({ daysToExpiry: 10, idDocType: 'passport' });
      expect(await sweep((await quiet({ id_doc_expiry: addDays(AS_OF, 40) })).customerId)).toEqual([]);
      expect(await sweep((await quiet({ id_doc_expiry: null })).customerId)).toEqual([]);
    });

    it('risk assessment expiry: two years after the assessment, within 30 days', async () => {
      const expiring = await quiet({ risk_assessed_on: '2024-11-25' });
      expect((await sweep(expiring.customerId)).map((event) => [event.rule, event.fact_key, event.facts.assessedOn])).toEqual([
        ['risk_expiry', '2026-11-25', '2024-11-25'],
      ]);
      expect(await sweep((await quiet({ risk_assessed_on: '2025-01-25' })).customerId)).toEqual([]);
    });

    // ── The risk rules of issue 24 (ADR 0043) ──

    /** Marks the customer's pending events of `rule` handled (as the handle endpoint would). */
    const handleAll = (customerId: number, rule: MotRule) =>
      database.query(`update mot_event set status = 'handled', handled_at = now() where customer_id = $1 and rule = $2`, [
        customerId,
        rule,
      ]);
    const ofRule = (events: EventRow[], rule: MotRule) => events.filter((event) => event.rule === rule);
    /** A security of our own at a round price, so position values are exact. */
    const ownSecurity = async (market: 'HK' | 'US' | 'SH', price = 100) => {
      const symbol = `R${Date.now() % 1e8}${Math.floor(Math.random() * 1e4)}`;
      const currency = market === 'US' ? 'USD' : market === 'SH' ? 'CNY' : 'HKD';
      const [row] = await database.query<{ id: number }>(
        `insert into security (symbol, market, name_cn, name_en, currency, lot_size, last_price, prev_close, price_date)
         values ($1, $2, '测试证券', 'Test Security', $3, 100, $4, $4, $5) returning id`,
        [symbol, market, currency, price, AS_OF],
      );
      return { id: row!.id, symbol };
    };

    it('negative equity: net assets below zero fire (not zero); one pending at a time, then again after 7 days', async () => {
      const negative = await quiet();
      await database.query('update customer set cash_hkd = -500000.01, market_value_hkd = 500000, total_assets_hkd = -0.01 where id = $1', [
        negative.customerId,
      ]);
      expect(await sweep(negative.customerId)).toEqual([
        {
          rule: 'negative_equity',
          fact_key: AS_OF,
          due_date: AS_OF,
          facts: { netAssetsHkd: -0.01, cashHkd: -500000.01, marketValueHkd: 500000, shortfallHkd: 0.01, repeatDays: 7 },
        },
      ]);
      const zero = await quiet();
      await database.query('update customer set cash_hkd = -500000, market_value_hkd = 500000, total_assets_hkd = 0 where id = $1', [
        zero.customerId,
      ]);
      expect(await sweep(zero.customerId)).toEqual([]);
      // Still negative: nothing while the event is pending, even weeks later …
      expect(await sweep(negative.customerId, addDays(AS_OF, 20))).toHaveLength(1);
      // … once handled, not within 7 days of the last one, then again.
      await handleAll(negative.customerId, 'negative_equity');
      expect(await sweep(negative.customerId, addDays(AS_OF, 6))).toHaveLength(1);
      expect((await sweep(negative.customerId, addDays(AS_OF, 7))).map((event) => event.fact_key)).toEqual([AS_OF, addDays(AS_OF, 7)]);
    });

    it('concentration: one position over 50 % of assets and at least HKD 1,000,000, once a quarter per security', async () => {
      const security = await ownSecurity('HK', 100);
      /** A client with `quantity` of the security at 100 and `cash` HKD, summary refreshed as after an import. */
      const holder = async (quantity: number, cash: number) => {
        const customer = await quiet();
        await database.query('insert into holding (account_id, customer_id, security_id, quantity, avg_cost) values ($1, $2, $3, $4, 90)', [
          customer.accountId,
          customer.customerId,
          security.id,
          quantity,
        ]);
        await database.query(`insert into cash_balance (account_id, currency, balance) values ($1, 'HKD', $2)`, [customer.accountId, cash]);
        await refreshCustomerSummaries(database, [customer.customerId]);
        return customer;
      };
      const over = await holder(10_000, 999_999.99);
      const events = await sweep(over.customerId);
      expect(events.map((event) => [event.rule, event.fact_key, event.due_date])).toEqual([
        ['concentration', `${security.symbol}@2026-Q4`, AS_OF],
      ]);
      expect(events[0]!.facts).toMatchObject({
        symbol: security.symbol,
        quantity: 10_000,
        positionHkd: 1_000_000,
        assetsHkd: 1_999_999.99,
        sharePct: 50,
        minSharePct: 50,
        minPositionHkd: 1_000_000,
      });
      // Exactly half is not "over"; a whole book of one stock under HKD 1,000,000 is too small.
      expect(await sweep((await holder(10_000, 1_000_000)).customerId)).toEqual([]);
      expect(await sweep((await holder(9_999, 0)).customerId)).toEqual([]);
      // A margin loan is not netted: HKD 2,000,000 of stock on a HKD 1,500,000 loan is 100 % of the assets held.
      const leveraged = await holder(20_000, -1_500_000);
      expect(ofRule(await sweep(leveraged.customerId), 'concentration')[0]!.facts).toMatchObject({ assetsHkd: 2_000_000, sharePct: 100 });
      // Still concentrated next month: nothing new; next quarter: raised again.
      expect(await sweep(over.customerId, '2026-12-21')).toHaveLength(1);
      expect((await sweep(over.customerId, '2027-01-04')).map((event) => event.fact_key)).toEqual([
        `${security.symbol}@2026-Q4`,
        `${security.symbol}@2027-Q1`,
      ]);
    });

    /** A profile edit's audit row (as updateProfile writes it) at `time` Hong Kong time on `day`. */
    const profileEdit = async (
      customer: { customerId: number; corpId: number; staffId: number },
      day: string,
      after: object,
      time = '09:00',
    ) => {
      await database.query(
        `insert into audit_log (corp_id, actor_staff_id, action, entity, entity_id, before, after, at)
         values ($1, $2, 'customer.update', 'customer', $3, '{}', $4, ($5::date + $6::time) at time zone 'Asia/Hong_Kong')`,
        [customer.corpId, customer.staffId, String(customer.customerId), JSON.stringify(after), day, time],
      );
    };

    it('particulars changed, then a large withdrawal within 14 days: fires per withdrawal, naming the fields and who changed them', async () => {
      const [manager] = await database.query<{ name: string }>(`select name from staff where wecom_user_id = 'chanwaiman'`);
      const changed = await quiet();
      await profileEdit(changed, addDays(AS_OF, -14), { email: 'new@example.com', remark: 'moved' });
      await profileEdit(changed, addDays(AS_OF, -20), { phone: '+852 9000 0000' });
      const withdrawal = await insertMoneyMovement(database, changed, {
        direction: 'withdrawal',
        currency: 'HKD',
        amount: 100_000,
        day: AS_OF,
      });
      const events = ofRule(await sweep(changed.customerId), 'particulars_changed_withdrawal');
      expect(events.map((event) => [event.fact_key, event.due_date])).toEqual([[String(withdrawal), AS_OF]]);
      expect(events[0]!.facts).toMatchObject({
        movementId: withdrawal,
        amountHkd: 100000,
        thresholdHkd: 100000,
        changedFields: 'email',
        changedAt: `${addDays(AS_OF, -14)} 09:00`,
        changedBy: manager!.name,
        daysBetween: 14,
        withinDays: 14,
      });

      // 15 days before; only tags and remark; after the withdrawal; a withdrawal just under the threshold: none fire.
      const tooEarly = await quiet();
      await profileEdit(tooEarly, addDays(AS_OF, -15), { phone: '+852 9000 0001' });
      await insertMoneyMovement(database, tooEarly, { direction: 'withdrawal', currency: 'HKD', amount: 500_000, day: AS_OF });
      const notParticulars = await quiet();
      await profileEdit(notParticulars, addDays(AS_OF, -1), { tags: ['VIP'], remark: 'x' });
      await insertMoneyMovement(database, notParticulars, { direction: 'withdrawal', currency: 'HKD', amount: 500_000, day: AS_OF });
      const afterwards = await quiet();
      await insertMoneyMovement(database, afterwards, { direction: 'withdrawal', currency: 'HKD', amount: 500_000, day: AS_OF });
      await profileEdit(afterwards, AS_OF, { phone: '+852 9000 0002' }, '13:00');
      const small = await quiet();
      await profileEdit(small, addDays(AS_OF, -2), { phone: '+852 9000 0003' });
      await insertMoneyMovement(database, small, { direction: 'withdrawal', currency: 'HKD', amount: 99_999.99, day: AS_OF });
      for (const customer of [tooEarly, notParticulars, afterwards, small])
        expect(ofRule(await sweep(customer.customerId), 'particulars_changed_withdrawal')).toEqual([]);
    });

    /** A trade at 10:00 Hong Kong time on `day`. */
    const trade = async (customer: { customerId: number; accountId: number }, securityId: number, day: string) => {
      const [row] = await database.query<{ id: number }>(
        `insert into trade (account_id, customer_id, security_id, side, quantity, price, amount, fee, currency, traded_at, settle_date)
         select $1, $2, id, 'buy', 100, last_price, 100 * last_price, 50, currency, ($4::date + time '10:00') at time zone 'Asia/Hong_Kong', $4::date + 2
           from security where id = $3
         returning id::float8 as id`,
        [customer.accountId, customer.customerId, securityId, day],
      );
      return row!.id;
    };

    it('vulnerable client: aged 65+ with a large withdrawal (not at 64)', async () => {
      const sixtyFive = await quiet({ birthday: '1961-11-20' });
      const id = await insertMoneyMovement(database, sixtyFive, { direction: 'withdrawal', currency: 'HKD', amount: 100_000, day: AS_OF });
      await insertMoneyMovement(database, sixtyFive, { direction: 'withdrawal', currency: 'HKD', amount: 99_999.99, day: AS_OF });
      const events = ofRule(await sweep(sixtyFive.customerId), 'vulnerable_client');
      expect(events.map((event) => [event.fact_key, event.due_date])).toEqual([[`withdrawal:${id}`, AS_OF]]);
      expect(events[0]!.facts).toMatchObject({ trigger: 'withdrawal', age: 65, minAge: 65, amountHkd: 100000, thresholdHkd: 100000 });
      const sixtyFour = await quiet({ birthday: '1961-11-21' });
      await insertMoneyMovement(database, sixtyFour, { direction: 'withdrawal', currency: 'HKD', amount: 900_000, day: AS_OF });
      expect(ofRule(await sweep(sixtyFour.customerId), 'vulnerable_client')).toEqual([]);
    });

    it('vulnerable client: a first trade in a market never traded before, once per market, within the look-back', async () => {
      const [hk, us, sh] = [await ownSecurity('HK'), await ownSecurity('US'), await ownSecurity('SH')];
      const elder = await quiet({ birthday: '1950-03-01' });
      await trade(elder, hk.id, addDays(AS_OF, -100));
      const firstUs = await trade(elder, us.id, addDays(AS_OF, -2));
      await trade(elder, us.id, addDays(AS_OF, -1));
      await trade(elder, hk.id, addDays(AS_OF, -1));
      await trade(elder, sh.id, addDays(AS_OF, -8));
      const events = await sweep(elder.customerId);
      expect(events.map((event) => [event.rule, event.fact_key, event.due_date])).toEqual([
        ['vulnerable_client', 'market:US', addDays(AS_OF, -2)],
      ]);
      expect(events[0]!.facts).toMatchObject({
        trigger: 'new_market',
        market: 'US',
        tradeId: firstUs,
        symbol: us.symbol,
        // Markets traded before the first US trade, the SH one outside the look-back included.
        previousMarkets: 'HK,SH',
        age: 76,
        minAge: 65,
      });
      // Another US trade a week later is no first; a first trade ever counts, with no previous market.
      await trade(elder, us.id, addDays(AS_OF, 5));
      expect(await sweep(elder.customerId, addDays(AS_OF, 6))).toHaveLength(1);
      const newcomer = await quiet({ birthday: '1955-06-01' });
      await trade(newcomer, hk.id, AS_OF);
      expect(ofRule(await sweep(newcomer.customerId), 'vulnerable_client').map((event) => event.facts.previousMarkets)).toEqual(['']);
      const younger = await quiet({ birthday: '1970-06-01' });
      await trade(younger, us.id, AS_OF);
      expect(await sweep(younger.customerId)).toEqual([]);
    });

    it('expiry warnings: the first 30 days before, the final 7 days before (each once); no final if the first came in the last week', async () => {
      const expiry = addDays(AS_OF, 30);
      const customer = await quiet({ id_doc_expiry: expiry });
      expect((await sweep(customer.customerId)).map((event) => [event.rule, event.fact_key, event.facts.lookaheadDays])).toEqual([
        ['id_expiry', expiry, 30],
      ]);
      expect(await sweep(customer.customerId, addDays(expiry, -8))).toHaveLength(1);
      const final = await sweep(customer.customerId, addDays(expiry, -7));
      expect(final.map((event) => [event.rule, event.fact_key, event.due_date])).toEqual([
        ['id_expiry', expiry, AS_OF],
        ['id_expiry', `${expiry}@7d`, addDays(expiry, -7)],
      ]);
      expect(final[1]!.facts).toMatchObject({
        expiryDate: expiry,
        daysToExpiry: 7,
        lookaheadDays: 7,
        warning: 'final',
        idDocType: 'passport',
      });
      expect(final[0]!.facts.warning).toBeUndefined();
      expect(await sweep(customer.customerId, addDays(expiry, -1))).toHaveLength(2);

      // First seen 8 days out: the final still comes a day later; first seen 5 days out: that one is the last week's warning.
      const eightDays = await quiet({ id_doc_expiry: addDays(AS_OF, 8) });
      expect(await sweep(eightDays.customerId)).toHaveLength(1);
      expect(await sweep(eightDays.customerId, addDays(AS_OF, 1))).toHaveLength(2);
      const fiveDays = await quiet({ id_doc_expiry: addDays(AS_OF, 5) });
      expect(await sweep(fiveDays.customerId)).toHaveLength(1);
      expect(await sweep(fiveDays.customerId, addDays(AS_OF, 1))).toHaveLength(1);

      // The risk assessment the same way: valid two years, first warning at 30 days, final at 7.
      const assessed = await quiet({ risk_assessed_on: '2024-12-20' });
      expect((await sweep(assessed.customerId)).map((event) => [event.rule, event.fact_key])).toEqual([['risk_expiry', '2026-12-20']]);
      expect((await sweep(assessed.customerId, '2026-12-13')).map((event) => [event.rule, event.fact_key, event.facts.warning])).toEqual([
        ['risk_expiry', '2026-12-20', undefined],
        ['risk_expiry', '2026-12-20@7d', 'final'],
      ]);
    });

    it("a lowered threshold (setMinCashIO's re-run of CASH_THRESHOLD_RULES) raises the risk rules' withdrawals at once", async () => {
      const elder = await quiet({ birthday: '1950-01-01' });
      await profileEdit(elder, addDays(AS_OF, -3), { phone: '+852 9000 0004' });
      await insertMoneyMovement(database, elder, { direction: 'withdrawal', currency: 'HKD', amount: 60_000, day: AS_OF });
      expect(await sweep(elder.customerId)).toEqual([]);
      await database.query('update staff set min_cash_io = 50000 where id = $1', [elder.staffId]);
      try {
        await runMotRules(database, { asOf: AS_OF, staffId: elder.staffId, rules: CASH_THRESHOLD_RULES });
        expect((await eventsOf(elder.customerId)).map((event) => [event.rule, event.facts.thresholdHkd])).toEqual([
          ['large_withdrawal', 50000],
          ['particulars_changed_withdrawal', 50000],
          ['vulnerable_client', 50000],
        ]);
      } finally {
        await database.query('update staff set min_cash_io = 100000 where id = $1', [elder.staffId]);
      }
    });

    it('raises nothing for a closed account', async () => {
      const closed = await quiet({ status: 'closed', birthday: '1990-11-21', last_trade_date: addDays(AS_OF, -400), id_doc_expiry: AS_OF });
      await insertMoneyMovement(database, closed, { direction: 'withdrawal', currency: 'HKD', amount: 5_000_000, day: AS_OF });
      expect(await sweep(closed.customerId)).toEqual([]);
    });

    it('full sweeps running concurrently insert each fact once', async () => {
      const [first, second] = await Promise.all([runMotRules(database, { asOf: AS_OF }), runMotRules(database, { asOf: AS_OF })]);
      const [{ duplicates, total }] = (await database.query<{ duplicates: number; total: number }>(
        `select (count(*) - count(distinct (rule, customer_id, fact_key)))::int as duplicates, count(*)::int as total from mot_event`,
      )) as [{ duplicates: number; total: number }];
      expect(duplicates).toBe(0);
      expect(first.total + second.total).toBeGreaterThan(0);
      expect((await runMotRules(database, { asOf: AS_OF })).total).toBe(0);
      expect(total).toBeGreaterThanOrEqual(first.total + second.total);
    });

    it('the daily sweep runs once per day, however many callers race for it', async () => {
      const day = '2026-11-21';
      const outcomes = await Promise.all([
        runDailyMotSweep(database, { asOf: day }),
        runDailyMotSweep(database, { asOf: day }),
        runDailyMotSweep(database, { asOf: day }),
      ]);
      expect(outcomes.filter((outcome) => outcome.status === 'ran')).toHaveLength(1);
      expect((await runDailyMotSweep(database, { asOf: day })).status).toBe('done-already');
      expect((await runDailyMotSweep(database, { asOf: day, force: true })).status).toBe('ran');
      const runs = await database.query<{ finished: boolean }>(
        'select finished_at is not null as finished from mot_sweep_run where run_date = $1',
        [day],
      );
      expect(runs).toEqual([{ finished: true }]);
    });
  });
}
