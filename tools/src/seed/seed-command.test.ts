import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDailyMotSweep, type DatabaseHandle } from '@broker/server';
import { hongKongDay } from '@broker/domain';
import { testDatabases } from '@broker/server/testing';
import { parseSweepCommand, runSweep } from '../mot/sweep-command';
import { parseSeedCommand, runSeed } from './seed-command';

/** 17:30 UTC on the 20th is 01:30 on the 21st in Hong Kong: the hour a UTC "today" got wrong. */
const AFTER_HK_MIDNIGHT = new Date('2026-11-20T17:30:00Z');

describe('seed and mot-sweep options', () => {
  it('take today from the Hong Kong calendar, both of them', () => {
    expect(parseSeedCommand([], AFTER_HK_MIDNIGHT).asOf).toBe('2026-11-21');
    expect(parseSweepCommand([], AFTER_HK_MIDNIGHT).asOf).toBe('2026-11-21');
    expect(parseSeedCommand(['--as-of', '2026-02-28']).asOf).toBe('2026-02-28');
  });

  it.each(['2026-02-30', '2026-2-3', '20261120', 'yesterday'])('refuse --as-of %s, saying what a day looks like', (value) => {
    const expected = `--as-of must be a real day written YYYY-MM-DD (got "${value}")`;
    expect(() => parseSeedCommand(['--as-of', value])).toThrow(expected);
    expect(() => parseSweepCommand(['--as-of', value])).toThrow(expected);
  });
});

for (const engine of testDatabases()) {
  describe(`seed and the MOT batch agree (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    const today = hongKongDay();
    const log: string[] = [];
    const hooks = { log: (line: string) => log.push(line) };

    beforeAll(async () => {
      database = await engine.create();
    });
    afterAll(async () => {
      await database?.drop();
    });

    /** Pending events of any due day: what the MOT list's date strip shows. */
    const pending = async () =>
      Number((await database.query<{ n: string }>(`select count(*)::text as n from mot_event where status <> 'handled'`))[0]!.n);

    it('the seed runs the day’s batch itself, so the MOT list is populated', async () => {
      const { motEvents } = await runSeed(database, parseSeedCommand(['--customers', '60', '--seed', '3']), hooks);
      expect(motEvents).toBeGreaterThan(0);
      expect(await pending()).toBe(motEvents);
      expect(log).toContain(`MOT batch for ${today}: ${motEvents} events`);
    });

    it('refuses to seed over customers without --reset', async () => {
      await expect(runSeed(database, parseSeedCommand(['--customers', '10']), hooks)).rejects.toThrow(
        'the database already has customers: pass --reset to replace them',
      );
    });

    it('seed --reset forgets that today’s batch ran, and the MOT list is populated again', async () => {
      // The server's schedule ran today's batch over the old data.
      expect(await runDailyMotSweep(database)).toMatchObject({ status: 'done-already', asOf: today });
      const { motEvents } = await runSeed(database, parseSeedCommand(['--customers', '40', '--seed', '11', '--reset']), hooks);
      expect(motEvents).toBeGreaterThan(0);
      expect(await pending()).toBe(motEvents);
      const runs = await database.query<{ run_date: string; finished: boolean }>(
        `select run_date::text, finished_at is not null as finished from mot_sweep_run`,
      );
      expect(runs).toEqual([{ run_date: today, finished: true }]);
    });

    it('after seed --reset for another day, the server’s schedule still runs today’s batch over the new data', async () => {
      const { motEvents } = await runSeed(
        database,
        parseSeedCommand(['--customers', '30', '--seed', '5', '--reset', '--as-of', '2026-11-02']),
        hooks,
      );
      expect(log).toContain(`MOT batch for 2026-11-02: ${motEvents} events`);
      const outcome = await runDailyMotSweep(database);
      expect(outcome.status).toBe('ran');
    });

    it('a sweep of a day already done says so, names --force, and is an ordinary outcome (exit code 0)', async () => {
      const printed: string[] = [];
      const code = await runSweep(database, parseSweepCommand([]), (line) => printed.push(line));
      expect(code).toBe(0);
      expect(printed).toEqual([`The MOT batch for ${today} already ran: nothing to do. To run it again: npm run mot-sweep -- --force`]);
      const forced: string[] = [];
      expect(await runSweep(database, parseSweepCommand(['--force']), (line) => forced.push(line))).toBe(0);
      expect(forced.at(-1)).toMatch(new RegExp(`^0 new events in [\\d.]+ s \\(as of ${today}\\)$`));
    });
  });
}
