import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MotRule } from '@broker/contract';
import { testDatabases } from '../../testing';
import type { DatabaseHandle } from '../../db/client';
import { seedDemoData } from '../../db/seed';
import { runMotRules } from './mot-engine';
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
