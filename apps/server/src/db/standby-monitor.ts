import { inspect } from 'node:util';
import pg from 'pg';
import { parseLsn } from './lsn';
import { PrimaryPositions } from './replication-lag';

/**
 * `up`: fit for reads; `lagging`: further behind than DATABASE_READ_MAX_LAG_MS (or nothing replayed
 * yet); `down`: no answer; `not-standby`: answers, but follows another cluster or another timeline,
 * or is out of recovery without being the primary itself (a promoted standby, ADR 0052), so what it
 * holds may have left the primary's history.
 */
export type StandbyState = 'up' | 'lagging' | 'down' | 'not-standby';

/** What choosing a standby needs to know of one. */
export interface StandbyView {
  readonly state: StandbyState;
  /** The newest WAL position it was seen to have replayed. */
  readonly replayed: bigint | undefined;
}

/**
 * A standby for a read: any one that is up and has replayed `required` (the reader's own last
 * write), taking turns; else, if any is up, the furthest one to wait for; else none (the primary).
 */
export function pickStandby<S extends StandbyView>(
  standbys: readonly S[],
  required: bigint | undefined,
  turn: number,
): { use: S } | { waitFor: S } | undefined {
  const healthy = standbys.filter((standby) => standby.state === 'up' && standby.replayed !== undefined);
  if (healthy.length === 0) return undefined;
  const fit = required === undefined ? healthy : healthy.filter((standby) => standby.replayed! >= required);
  if (fit.length > 0) return { use: fit[turn % fit.length]! };
  return { waitFor: healthy.reduce((furthest, standby) => (standby.replayed! > furthest.replayed! ? standby : furthest)) };
}

/** One probe's limit, to connect and to answer: past it the server counts as down. */
const PROBE_TIMEOUT_MS = 1000;

/**
 * Which cluster a server belongs to: its system identifier, which `initdb` draws and every standby
 * copied from it keeps. As text: it is a 64-bit number.
 */
const SYSTEM = `(select system_identifier from pg_control_system())::text`;
/**
 * When the postmaster started, in seconds since 1970: two servers of one cluster never share it, so
 * it tells a promoted standby from the primary it left. A number, not a timestamp's text, which
 * follows the session's TimeZone and DateStyle (a standby's URL or role may set other ones).
 */
const STARTED = `extract(epoch from pg_postmaster_start_time())::text`;
/**
 * The timeline the primary writes on: in the name of its current WAL file (pg_control_checkpoint's
 * still names the old one after a promotion, until the next checkpoint ends).
 */
const WRITING_TIMELINE = `('x' || substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8))::bit(32)::bigint`;
/**
 * The timeline a standby follows: its WAL receiver's (visible to a role with pg_read_all_stats),
 * else its last restartpoint's, which may still name the previous timeline for a while after it
 * followed a promotion (it is then skipped until its next restartpoint: never used wrongly).
 */
const FOLLOWED_TIMELINE = `coalesce((select received_tli from pg_stat_wal_receiver), (select timeline_id from pg_control_checkpoint()))`;
/** `inserted`: how far the primary has written anything, the bound of every real read-your-writes position. */
const PRIMARY_QUERY = `select pg_current_wal_lsn()::text as lsn, pg_current_wal_insert_lsn()::text as inserted,
  ${SYSTEM} as system, ${STARTED} as started, ${WRITING_TIMELINE}::text as timeline`;
/** A server not in recovery holds everything it has inserted (read-your-writes positions are insert positions). */
const POSITION = `(case when pg_is_in_recovery() then pg_last_wal_replay_lsn() else pg_current_wal_insert_lsn() end)::text`;
const STANDBY_QUERY = `select pg_is_in_recovery() as recovery, ${POSITION} as lsn, ${SYSTEM} as system, ${STARTED} as started,
  (case when pg_is_in_recovery() then ${FOLLOWED_TIMELINE} else ${WRITING_TIMELINE} end)::text as timeline`;

/** A connection of its own for the monitor's questions, opened again after any failure. */
export class Probe {
  private client: pg.Client | undefined;

  constructor(private readonly config: pg.ClientConfig) {}

  async row<Row>(text: string): Promise<Row> {
    try {
      if (!this.client) {
        const client = new pg.Client({ ...this.config, connectionTimeoutMillis: PROBE_TIMEOUT_MS, query_timeout: PROBE_TIMEOUT_MS });
        client.on('error', () => this.drop(client));
        this.client = client;
        await client.connect();
      }
      return (await this.client.query(text)).rows[0] as Row;
    } catch (error) {
      // A timed-out query is still running on that connection: start afresh.
      this.drop(this.client);
      throw error;
    }
  }

  drop(client = this.client): void {
    if (!client) return;
    if (this.client === client) this.client = undefined;
    client.end().catch(() => undefined);
  }
}

/** Which server answered, and on which timeline it writes or follows (as text: numbers beyond 2^53). */
export interface ServerIdentity {
  system: string;
  started: string;
  timeline: string | null;
}

/** What a look at a standby answered. */
export interface SeenStandby extends ServerIdentity {
  recovery: boolean;
  lsn: string | null;
}

export interface Judgement {
  state: StandbyState;
  replayed: bigint | undefined;
  lagMs: number | null;
  /** Why it is not used, when that is not plain lag. */
  reason?: string;
}

/**
 * A standby's state from one look. In recovery, it is a standby of this primary only if it follows
 * the same cluster (system identifier) on the primary's current timeline: another cluster's standby,
 * or one left on the old timeline by a failover, has positions that say nothing about this primary's,
 * and would look 0 ms behind for ever. Such a server is `not-standby`; one of this primary's is `up`
 * while at most `maxLagMs` behind its sampled positions. Out of recovery, only the primary itself
 * (tests, or DATABASE_READ_URL reaching the new primary after a failover) is trusted, and is never
 * behind; a promoted standby may hold writes the primary never had, or miss some it had. Before the
 * primary has answered once, nothing can be verified: not used.
 */
export function judgeStandby(
  seen: SeenStandby,
  primary: ServerIdentity | undefined,
  positions: Pick<PrimaryPositions, 'lagMs'>,
  now: number,
  maxLagMs: number,
): Judgement {
  const notStandby = (reason: string): Judgement => ({ state: 'not-standby', replayed: undefined, lagMs: null, reason });
  if (!primary) {
    return { state: 'lagging', replayed: undefined, lagMs: null, reason: 'the primary has not answered yet: nothing to compare with' };
  }
  if (!seen.recovery) {
    if (seen.system === primary.system && seen.started === primary.started) return { state: 'up', replayed: parseLsn(seen.lsn), lagMs: 0 };
    return notStandby('out of recovery, and not the primary itself (a promoted standby?)');
  }
  if (seen.system !== primary.system) {
    return notStandby(`a standby of another cluster (system identifier ${seen.system}, the primary's ${primary.system})`);
  }
  if (seen.timeline === null || seen.timeline !== primary.timeline) {
    return notStandby(
      `follows timeline ${seen.timeline ?? 'unknown'}, the primary writes on timeline ${primary.timeline} (left behind by a failover?)`,
    );
  }
  const replayed = parseLsn(seen.lsn);
  if (replayed === undefined) return { state: 'lagging', replayed: undefined, lagMs: null };
  const lagMs = positions.lagMs(replayed, now);
  return { state: lagMs > maxLagMs ? 'lagging' : 'up', replayed, lagMs };
}

export class Standby implements StandbyView {
  state: StandbyState = 'down';
  replayed: bigint | undefined;
  lagMs: number | null = null;
  /** Statements (and transactions) run here since start: /readyz shows them, so a deployment can see its standbys used. */
  reads = 0;
  /** The monitor's last answer from it, judged again while looks fail. */
  lastSeen: SeenStandby | undefined;
  /** The monitor's looks that failed since the last that did not. */
  failedLooks = 0;

  constructor(
    /** For logs and /readyz: host, port and database, never the password. */
    readonly name: string,
    readonly pool: pg.Pool,
    readonly preparedPool: pg.Pool,
    readonly probe: Probe,
  ) {}
}

export interface StandbyReport {
  name: string;
  state: StandbyState;
  lagMs: number | null;
  reads: number;
}

export interface StandbyChange extends StandbyReport {
  /** undefined: the first report of this standby. */
  from: StandbyState | undefined;
  /** Why it is down (the driver's message), when it is. */
  reason?: string;
}

/** Whether the monitor's probe of the primary answers: while it does not, lag cannot be measured. */
export interface PrimaryProbeChange {
  answering: boolean;
  /** Failing: the driver's message. */
  reason?: string;
  /** Answering again: how many looks failed before. */
  failedLooks?: number;
}

export interface StandbyMonitorOptions {
  maxLagMs: number;
  /** How long a read waits for a standby to replay its reader's last write (tuning.ts's standbyReadWaitMs). */
  waitMs: number;
  /** Between two looks at every server. */
  intervalMs?: number;
}

/** How often the monitor looks: lag is known to within this, and a dead standby is skipped within this plus the probe's limit. */
const DEFAULT_INTERVAL_MS = 250;
/**
 * Looks in a row a standby must fail to be called down: one probe past its second under a loaded CPU
 * would otherwise take a live standby out and put it back, over and over. A statement that fails
 * under a request marks it down at once.
 */
const FAILED_LOOKS_FOR_DOWN = 3;
/**
 * How often it looks while a read waits (for a standby to replay a position, or for the primary to
 * vouch for one): the waits share these looks, so a thousand waiting reads cost what one does.
 */
const WAITING_INTERVAL_MS = 20;

/** A read waiting for what the next looks will see. */
interface Waiter {
  /** Called after every look. */
  check(): void;
  /** Ends the wait with nothing (the monitor stopped). */
  cancel(): void;
}

/**
 * Watches the primary's WAL position and each standby's (ADR 0052): a standby is `up` while it
 * answers, is in recovery (or is the primary itself) and is at most `maxLagMs` behind. Reads that
 * must wait for a standby wait for the monitor's own looks, never query a standby themselves.
 */
export class StandbyMonitor {
  private readonly positions: PrimaryPositions;
  private primary: ServerIdentity | undefined;
  /** The primary's insert position at its last answer, and when that look began (performance.now()). */
  private primaryReached: { lsn: bigint; since: number } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private nextLookAt = Number.POSITIVE_INFINITY;
  private looking = false;
  private stopped = false;
  private turn = 0;
  private readonly waiters = new Set<Waiter>();
  private readonly listeners = new Set<(change: StandbyChange) => void>();
  private readonly primaryListeners = new Set<(change: PrimaryProbeChange) => void>();
  /** undefined before the first look; the primary's failed looks in a row. */
  private primaryAnswering: boolean | undefined;
  private primaryFailedLooks = 0;

  constructor(
    readonly standbys: readonly Standby[],
    private readonly primaryProbe: Probe,
    private readonly options: StandbyMonitorOptions,
  ) {
    // Lag is measured exactly up to well past the bound; beyond, a standby is only "too far behind".
    this.positions = new PrimaryPositions(Math.max(2 * options.maxLagMs, 10_000));
  }

  /** One look at every server (so the first requests already know), then one every interval. */
  async start(): Promise<void> {
    this.looking = true;
    try {
      await this.look();
    } finally {
      this.looking = false;
    }
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    for (const waiter of this.waiters) waiter.cancel();
    this.primaryProbe.drop();
    for (const standby of this.standbys) standby.probe.drop();
  }

  /** Calls `listener` with every standby's state now, then with every change. */
  watch(listener: (change: StandbyChange) => void): () => void {
    for (const standby of this.standbys) listener({ ...this.reportOf(standby), from: undefined });
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Calls `listener` when the primary's probe starts failing, and when it answers again. */
  watchPrimary(listener: (change: PrimaryProbeChange) => void): () => void {
    this.primaryListeners.add(listener);
    return () => this.primaryListeners.delete(listener);
  }

  report(): StandbyReport[] {
    return this.standbys.map((standby) => this.reportOf(standby));
  }

  /** A statement failed on `standby` for want of the server (not of the statement): skip it until it answers again. */
  markDown(standby: Standby, error: unknown): void {
    this.set(standby, 'down', null, error);
  }

  /**
   * The standby a read may use: one that has replayed `required` (positions this process has from
   * the primary) and `claimed` (the reader's cookie: untrusted), at once if one has, else after
   * waiting at most standbyReadWaitMs for the monitor to see one that has; undefined: read on
   * the primary. A claim beyond any position the primary has reached, in a look that began after
   * the read arrived, is no write of anyone's (forged, or from before a failover): ignored.
   */
  async standbyFor(required: bigint | undefined, claimed?: bigint): Promise<Standby | undefined> {
    const arrivedAt = performance.now();
    const deadline = Date.now() + this.options.waitMs;
    let wanted = required;
    if (claimed !== undefined && (wanted === undefined || claimed > wanted)) {
      const verdict = await this.until(deadline, () => this.claimVerdict(claimed, arrivedAt));
      // The primary has not answered within the wait: the claim may be a real write's.
      if (verdict === undefined) return undefined;
      if (verdict === 'reached') wanted = claimed;
    }
    const turn = this.turn++;
    const found = await this.until(deadline, () => {
      const pick = pickStandby(this.standbys, wanted, turn);
      if (!pick) return { standby: undefined };
      return 'use' in pick ? { standby: pick.use } : undefined;
    });
    return found?.standby;
  }

  /**
   * `reached`: the primary was seen at or past `claimed`; `beyond`: a look at it that began after
   * `since` found it short of `claimed`; undefined: not known yet (a write another process has just
   * acknowledged may lie beyond this monitor's last look). Strictly after, on the monotonic clock: a
   * look begun in the same millisecond as the read, before the write it claims was committed, saw the
   * primary short of it, and `>=` on Date.now() took that for a forged claim (a read sent to a standby
   * without the reader's write; CI saw it once, standby-monitor.test.ts).
   */
  private claimVerdict(claimed: bigint, since: number): 'reached' | 'beyond' | undefined {
    const reached = this.primaryReached;
    if (!reached) return undefined;
    if (claimed <= reached.lsn) return 'reached';
    return reached.since > since ? 'beyond' : undefined;
  }

  /**
   * What `check` answers, as soon as it answers something: now, or after one of the monitor's looks
   * (which come every WAITING_INTERVAL_MS while anyone waits); undefined at `deadline`.
   */
  private until<T>(deadline: number, check: () => T | undefined): Promise<T | undefined> {
    const now = check();
    if (now !== undefined || this.stopped || Date.now() >= deadline) return Promise.resolve(now);
    return new Promise((resolve) => {
      const finish = (value: T | undefined) => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
        resolve(value);
      };
      const waiter: Waiter = {
        check: () => {
          const value = check();
          if (value !== undefined) finish(value);
        },
        cancel: () => finish(undefined),
      };
      const timer = setTimeout(() => finish(undefined), deadline - Date.now());
      this.waiters.add(waiter);
      this.hurry();
    });
  }

  /** A read waits: the next look comes within the waiting interval, not the usual one. */
  private hurry(): void {
    if (this.stopped || this.looking || this.nextLookAt - Date.now() <= WAITING_INTERVAL_MS) return;
    this.schedule(0);
  }

  private schedule(delayMs = this.waiters.size > 0 ? WAITING_INTERVAL_MS : (this.options.intervalMs ?? DEFAULT_INTERVAL_MS)): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.nextLookAt = Date.now() + delayMs;
    this.timer = setTimeout(() => {
      this.nextLookAt = Number.POSITIVE_INFINITY;
      this.looking = true;
      void this.look().finally(() => {
        this.looking = false;
        this.schedule();
      });
    }, delayMs);
    this.timer.unref();
  }

  private async look(): Promise<void> {
    // The monotonic clock, as the reads' arrival is taken (claimVerdict compares the two).
    const began = performance.now();
    try {
      const {
        lsn: position,
        inserted,
        ...identity
      } = await this.primaryProbe.row<ServerIdentity & { lsn: string; inserted: string }>(PRIMARY_QUERY);
      const lsn = parseLsn(position);
      if (lsn !== undefined) this.positions.record(lsn, Date.now());
      const reached = parseLsn(inserted);
      if (reached !== undefined) this.primaryReached = { lsn: reached, since: began };
      this.primary = identity;
      this.primaryAnswered();
    } catch (error) {
      // Standbys are still measured against what it was last seen to hold, until that is older than
      // the lag bound (judge): PgBouncer queueing the probe, or the primary gone.
      this.primaryFailed(error);
    }
    await Promise.all(this.standbys.map((standby) => this.lookAt(standby)));
    for (const waiter of this.waiters) waiter.check();
  }

  private primaryAnswered(): void {
    const failedLooks = this.primaryFailedLooks;
    this.primaryFailedLooks = 0;
    if (this.primaryAnswering === false) for (const listener of this.primaryListeners) listener({ answering: true, failedLooks });
    this.primaryAnswering = true;
  }

  private primaryFailed(error: unknown): void {
    this.primaryFailedLooks += 1;
    if (this.primaryAnswering === false) return;
    this.primaryAnswering = false;
    const reason = error instanceof Error ? error.message : String(error);
    for (const listener of this.primaryListeners) listener({ answering: false, reason });
  }

  private async lookAt(standby: Standby): Promise<void> {
    try {
      standby.lastSeen = await standby.probe.row(STANDBY_QUERY);
      standby.failedLooks = 0;
    } catch (error) {
      standby.failedLooks += 1;
      if (standby.failedLooks >= FAILED_LOOKS_FOR_DOWN || !standby.lastSeen) {
        this.set(standby, 'down', null, error);
        return;
      }
      // Not yet down: what it said last is judged against the primary's positions now, which can
      // only make it further behind.
    }
    if (this.stopped || !standby.lastSeen) return;
    const judged = this.judge(standby.lastSeen);
    standby.replayed = judged.replayed;
    this.set(standby, judged.state, judged.lagMs, judged.reason);
  }

  /**
   * judgeStandby, and a standby in recovery is not used once the primary's last answer is older than
   * the lag bound: how far behind it is can no longer be told (the monitor must not fail open).
   */
  private judge(seen: SeenStandby): Judgement {
    const now = Date.now();
    const judged = judgeStandby(seen, this.primary, this.positions, now, this.options.maxLagMs);
    const ageMs = this.positions.ageMs(now);
    if (!seen.recovery || judged.state !== 'up' || ageMs <= this.options.maxLagMs) return judged;
    const since = Number.isFinite(ageMs) ? `for ${Math.round(ageMs)} ms` : 'yet';
    return {
      state: 'lagging',
      replayed: judged.replayed,
      lagMs: null,
      reason: `lag unknown: the primary has not answered the monitor ${since}`,
    };
  }

  /** `why`: the error that made it down, or the reason it is not used; logged once per change of state. */
  private set(standby: Standby, state: StandbyState, lagMs: number | null, why?: unknown): void {
    const from = standby.state;
    standby.state = state;
    standby.lagMs = lagMs === null || Number.isFinite(lagMs) ? lagMs : null;
    if (from === state) return;
    const reason = why === undefined ? undefined : why instanceof Error ? why.message : typeof why === 'string' ? why : inspect(why);
    const change: StandbyChange = { ...this.reportOf(standby), from, ...(reason ? { reason } : {}) };
    for (const listener of this.listeners) listener(change);
  }

  private reportOf(standby: Standby): StandbyReport {
    return { name: standby.name, state: standby.state, lagMs: standby.lagMs, reads: standby.reads };
  }
}
