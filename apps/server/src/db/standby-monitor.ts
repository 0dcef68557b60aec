import { inspect } from 'node:util';
import pg from 'pg';
import { parseLsn } from './lsn';
import type { StandbyOptions } from './client';
import { PrimaryPositions } from './replication-lag';

/**
 * `lagging`: further behind than DATABASE_READ_MAX_LAG_MS, or nothing replayed yet. `not-standby`: follows
 * another cluster or timeline, or is out of recovery without being the primary (ADR 0052).
 */
export type StandbyState = 'up' | 'lagging' | 'down' | 'not-standby';

export interface StandbyView {
  readonly state: StandbyState;
  readonly replayed: bigint | undefined;
}

/** Any standby that is up and has replayed `required`, taking turns; else the furthest one up to wait for. */
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

/** Past this, to connect or to answer, the server counts as down. */
const PROBE_TIMEOUT_MS = 1000;

/** The cluster: `initdb` draws it and every standby copied from it keeps it (text: 64 bits). */
const SYSTEM = `(select system_identifier from pg_control_system())::text`;
/**
 * Two servers of one cluster never share it, so it tells a promoted standby from the primary it left. A
 * number: a timestamp's text follows the session's TimeZone and DateStyle.
 */
const STARTED = `extract(epoch from pg_postmaster_start_time())::text`;
/** From the current WAL file's name: pg_control_checkpoint's names the old timeline until a checkpoint after a promotion. */
const WRITING_TIMELINE = `('x' || substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8))::bit(32)::bigint`;
/**
 * The WAL receiver's (needs pg_read_all_stats), else the last restartpoint's, which may name the previous
 * timeline for a while after a promotion (the standby is then skipped: never used wrongly).
 */
const FOLLOWED_TIMELINE = `coalesce((select received_tli from pg_stat_wal_receiver), (select timeline_id from pg_control_checkpoint()))`;
/** `inserted` bounds every real read-your-writes position. */
const PRIMARY_QUERY = `select pg_current_wal_lsn()::text as lsn, pg_current_wal_insert_lsn()::text as inserted,
  ${SYSTEM} as system, ${STARTED} as started, ${WRITING_TIMELINE}::text as timeline`;
/** Read-your-writes positions are insert positions: a server not in recovery holds all it has inserted. */
const POSITION = `(case when pg_is_in_recovery() then pg_last_wal_replay_lsn() else pg_current_wal_insert_lsn() end)::text`;
const STANDBY_QUERY = `select pg_is_in_recovery() as recovery, ${POSITION} as lsn, ${SYSTEM} as system, ${STARTED} as started,
  (case when pg_is_in_recovery() then ${FOLLOWED_TIMELINE} else ${WRITING_TIMELINE} end)::text as timeline`;

/** The monitor's own connection, opened again after any failure. */
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
      // A timed-out query is still running on that connection.
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

/** As text: numbers beyond 2^53. */
export interface ServerIdentity {
  system: string;
  started: string;
  timeline: string | null;
}

export interface SeenStandby extends ServerIdentity {
  recovery: boolean;
  lsn: string | null;
}

export type Judgement = StandbyView & { lagMs: number | null; reason?: string };

/**
 * In recovery, a standby of this primary only if it follows the same cluster on the primary's current
 * timeline (another's positions say nothing about this primary's, and look 0 ms behind for ever); then up
 * while at most `maxLagMs` behind. Out of recovery only the primary itself is trusted (a promoted standby may
 * hold writes the primary never had). Before the primary has answered once, nothing is used.
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
  /** Statements run here since start, for /readyz. */
  reads = 0;
  /** Judged again while looks fail. */
  lastSeen: SeenStandby | undefined;
  failedLooks = 0;

  constructor(
    /** Host, port and database, never the password. */
    readonly name: string,
    readonly pool: pg.Pool,
    readonly preparedPool: pg.Pool,
    readonly probe: Probe,
  ) {}
}

export type StandbyReport = Pick<Standby, 'name' | 'state' | 'lagMs' | 'reads'>;

export interface StandbyChange extends StandbyReport {
  from: StandbyState | undefined;
  reason?: string;
}

/** While the monitor's probe of the primary fails, lag cannot be measured. */
export interface PrimaryProbeChange {
  answering: boolean;
  reason?: string;
  failedLooks?: number;
}

/** Lag is known to within this; a dead standby is skipped within this plus the probe's limit. */
const DEFAULT_INTERVAL_MS = 250;
/** A loaded CPU makes one probe late now and then: one late look must not take a live standby out. */
const FAILED_LOOKS_FOR_DOWN = 3;
/** While reads wait they share these looks, so a thousand waiting reads cost what one does. */
const WAITING_INTERVAL_MS = 20;

/** Watches the primary's and each standby's WAL position (ADR 0052); waiting reads wait for its looks. */
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
  private readonly waiters = new Set<{ check(): void; cancel(): void }>();
  private readonly listeners = new Set<(change: StandbyChange) => void>();
  private readonly primaryListeners = new Set<(change: PrimaryProbeChange) => void>();
  private primaryAnswering: boolean | undefined;
  private primaryFailedLooks = 0;

  constructor(
    readonly standbys: readonly Standby[],
    private readonly primaryProbe: Probe,
    private readonly options: Pick<StandbyOptions, 'maxLagMs' | 'waitMs' | 'monitorIntervalMs'>,
  ) {
    // Exact up to well past the bound; beyond, only "too far behind".
    this.positions = new PrimaryPositions(Math.max(2 * options.maxLagMs, 10_000));
  }

  /** One look at once, so the first requests already know. */
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

  watch(listener: (change: StandbyChange) => void): () => void {
    for (const standby of this.standbys) listener({ ...this.reportOf(standby), from: undefined });
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  watchPrimary(listener: (change: PrimaryProbeChange) => void): () => void {
    this.primaryListeners.add(listener);
    return () => this.primaryListeners.delete(listener);
  }

  report(): StandbyReport[] {
    return this.standbys.map((standby) => this.reportOf(standby));
  }

  /** A statement failed for want of the server: skip it until it answers again. */
  markDown(standby: Standby, error: unknown): void {
    this.set(standby, 'down', null, error);
  }

  /**
   * A standby that has replayed `required` and `claimed` (the reader's cookie: untrusted), waiting at most
   * standbyReadWaitMs; undefined: the primary. A claim beyond what the primary had reached in a look begun
   * after the read arrived is no one's write (forged, or from before a failover): ignored.
   */
  async standbyFor(required: bigint | undefined, claimed?: bigint): Promise<Standby | undefined> {
    const arrivedAt = performance.now();
    const deadline = Date.now() + this.options.waitMs;
    let wanted = required;
    if (claimed !== undefined && (wanted === undefined || claimed > wanted)) {
      const verdict = await this.until(deadline, () => this.claimVerdict(claimed, arrivedAt));
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
   * `beyond`: a look begun after `since` found the primary short of `claimed`; undefined: not known yet.
   * Strictly after, on the monotonic clock: a look begun in the read's millisecond may predate the write's commit.
   */
  private claimVerdict(claimed: bigint, since: number): 'reached' | 'beyond' | undefined {
    const reached = this.primaryReached;
    if (!reached) return undefined;
    if (claimed <= reached.lsn) return 'reached';
    return reached.since > since ? 'beyond' : undefined;
  }

  /** What `check` answers, now or after one of the monitor's looks; undefined at `deadline`. */
  private until<T>(deadline: number, check: () => T | undefined): Promise<T | undefined> {
    const now = check();
    if (now !== undefined || this.stopped || Date.now() >= deadline) return Promise.resolve(now);
    return new Promise((resolve) => {
      const finish = (value: T | undefined) => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
        resolve(value);
      };
      const waiter = {
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

  private hurry(): void {
    if (this.stopped || this.looking || this.nextLookAt - Date.now() <= WAITING_INTERVAL_MS) return;
    this.schedule(0);
  }

  private schedule(delayMs = this.waiters.size > 0 ? WAITING_INTERVAL_MS : this.options.monitorIntervalMs || DEFAULT_INTERVAL_MS): void {
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
    // The monotonic clock, as the reads' arrival is taken.
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
      // Standbys are judged against its last positions until they are older than the lag bound.
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
      // Not yet down: its last answer is judged against the primary's positions now.
    }
    if (this.stopped || !standby.lastSeen) return;
    const judged = this.judge(standby.lastSeen);
    standby.replayed = judged.replayed;
    this.set(standby, judged.state, judged.lagMs, judged.reason);
  }

  /** Once the primary's last answer is older than the lag bound, lag cannot be told: fail closed. */
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

  /** `why` is logged once per change of state. */
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
