import { describe, expect, it } from 'vitest';
import { intendedSendTime, scheduleFixedRate, type SchedulerClock } from './http-load';
import { summarize } from './stats';

/** Virtual time: sleeping moves the clock, nothing waits. */
function virtualClock(): SchedulerClock & { advance(ms: number): void } {
  let now = 0;
  return {
    now: () => now,
    sleep: async (ms) => {
      now += ms;
    },
    advance: (ms) => {
      now += ms;
    },
  };
}

/**
 * One server that answers in order, `serviceMs` per request, and stalls once for `stallMs` on
 * request `stallAt`: when a request sent at `sentAt` completes.
 */
function fifoServer(serviceMs: number, stallAt: number, stallMs: number) {
  let freeAt = 0;
  let served = 0;
  return (sentAt: number) => {
    const start = Math.max(sentAt, freeAt);
    freeAt = start + serviceMs + (served === stallAt ? stallMs : 0);
    served += 1;
    return freeAt;
  };
}

describe('fixed-rate scheduler', () => {
  it('sends request i at start + i / rate, however long the answers take', async () => {
    const clock = virtualClock();
    clock.advance(1000);
    const sends: Array<{ intendedAt: number; sentAt: number }> = [];
    let release!: () => void;
    const unanswered = new Promise<void>((resolve) => (release = resolve));
    const run = scheduleFixedRate(
      { ratePerSecond: 200, durationMs: 100 },
      (intendedAt) => {
        sends.push({ intendedAt, sentAt: clock.now() });
        return unanswered;
      },
      clock,
    );
    // Every send is made before any answer arrives: nothing waits for an answer.
    await new Promise((resolve) => setImmediate(resolve));
    expect(sends).toHaveLength(20);
    release();
    expect(await run).toEqual({ sent: 20, startedAt: 1000 });
    expect(sends.map((send) => send.intendedAt)).toEqual(Array.from({ length: 20 }, (_, index) => 1000 + index * 5));
    for (const send of sends) expect(send.sentAt).toBe(send.intendedAt);
  });

  it('sends overdue requests at once, keeping their intended times', async () => {
    const clock = virtualClock();
    const sends: Array<{ intendedAt: number; sentAt: number }> = [];
    await scheduleFixedRate(
      { ratePerSecond: 100, durationMs: 50 },
      async (intendedAt) => {
        sends.push({ intendedAt, sentAt: clock.now() });
        // The sender itself is slow: 25 ms of work for the first request.
        if (sends.length === 1) clock.advance(25);
      },
      clock,
    );
    expect(sends).toEqual([
      { intendedAt: 0, sentAt: 0 },
      { intendedAt: 10, sentAt: 25 },
      { intendedAt: 20, sentAt: 25 },
      { intendedAt: 30, sentAt: 30 },
      { intendedAt: 40, sentAt: 40 },
    ]);
  });

  it('times a request sent early by a timer from when it went, never from its later intended time', async () => {
    // Node's timers run on the loop's cached millisecond clock: this one wakes 0.6 ms early.
    let now = 0;
    const early: SchedulerClock = {
      now: () => now,
      sleep: async (ms) => {
        now += ms - 0.6;
      },
    };
    const timedFrom: number[] = [];
    await scheduleFixedRate({ ratePerSecond: 100, durationMs: 30 }, async (from) => void timedFrom.push(from), early);
    // The first is due at once; the next two went 0.6 ms before they were due, and are timed from then.
    expect(timedFrom.map((from) => Math.round(from * 10) / 10)).toEqual([0, 9.4, 19.4]);
  });

  it('times each request from its intended send time, so a stall shows in every request queued behind it', async () => {
    // 100 requests a second against a server that needs 2 ms each and stalls 200 ms once.
    const clock = virtualClock();
    const server = fifoServer(2, 50, 200);
    const fixedRate: number[] = [];
    await scheduleFixedRate(
      { ratePerSecond: 100, durationMs: 1000 },
      async (intendedAt) => {
        fixedRate.push(server(clock.now()) - intendedAt);
      },
      clock,
    );
    // A closed loop of one connection against the same server: the next request waits for the answer.
    const closedServer = fifoServer(2, 50, 200);
    const closedLoop: number[] = [];
    for (let now = 0; now < 1000;) {
      const done = closedServer(now);
      closedLoop.push(done - now);
      now = done;
    }
    const open = summarize(fixedRate);
    const closed = summarize(closedLoop);
    expect(open.count).toBe(100);
    // The stalled request and the twelve due while it held the server each waited more than 100 ms.
    expect(fixedRate.filter((latency) => latency > 100)).toHaveLength(13);
    expect(open.p95).toBeGreaterThan(100);
    // The closed loop saw the stall once among hundreds of fast answers: coordinated omission.
    expect(closedLoop.filter((latency) => latency > 100)).toHaveLength(1);
    expect(closed.p99).toBe(2);
  });

  it('spaces intended times by 1 / rate, and refuses a rate of zero', async () => {
    expect([0, 1, 2, 3].map((index) => intendedSendTime(index, 400))).toEqual([0, 2.5, 5, 7.5]);
    await expect(scheduleFixedRate({ ratePerSecond: 0, durationMs: 10 }, async () => undefined)).rejects.toThrow(RangeError);
  });
});
