/**
 * A standby's lag in time (ADR 0052): as old as the oldest sampled primary position it has not replayed. An
 * idle primary's position stays put, so a standby that replayed it is 0 ms behind (unlike
 * `now() - pg_last_xact_replay_timestamp()`, which grows while nothing happens).
 */
export class PrimaryPositions {
  /** Oldest first, with the time each was first seen. */
  private samples: { at: number; lsn: bigint }[] = [];
  /** The newest position dropped for age: a standby below it is more than `keepMs` behind. */
  private floor: bigint | undefined;

  constructor(private readonly keepMs: number) {}

  /** Whether its position moved or not. */
  private lastAt: number | undefined;

  record(lsn: bigint, at: number): void {
    this.lastAt = at;
    const last = this.samples.at(-1);
    if (last && lsn < last.lsn) {
      // Another server answers as the primary (a promoted standby): the old one's positions say nothing now.
      this.samples = [];
      this.floor = undefined;
    }
    if (this.samples.at(-1)?.lsn !== lsn) this.samples.push({ at, lsn });
    while (this.samples.length > 1 && this.samples[0]!.at < at - this.keepMs) this.floor = this.samples.shift()!.lsn;
  }

  /** Infinity beyond `keepMs`. */
  lagMs(replayed: bigint, now: number): number {
    if (this.floor !== undefined && replayed < this.floor) return Number.POSITIVE_INFINITY;
    const oldestMissed = this.samples.find((sample) => sample.lsn > replayed);
    return oldestMissed ? Math.max(0, now - oldestMissed.at) : 0;
  }

  ageMs(now: number): number {
    return this.lastAt === undefined ? Number.POSITIVE_INFINITY : now - this.lastAt;
  }
}
