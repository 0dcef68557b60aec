/**
 * How far a standby is behind the primary, in time (ADR 0052). The primary's WAL position is sampled
 * often; a standby is as far behind as the oldest sample it has not replayed is old. An idle primary
 * writes nothing, its position stays put, and a standby that replayed it is 0 ms behind however long
 * ago that was — unlike `now() - pg_last_xact_replay_timestamp()`, which grows while nothing happens.
 */
export class PrimaryPositions {
  /** Each distinct position, oldest first, with the time it was first seen. */
  private samples: { at: number; lsn: bigint }[] = [];
  /** The newest position dropped for age: a standby below it is more than `keepMs` behind. */
  private floor: bigint | undefined;

  /** `keepMs`: how far back lag is measured exactly; beyond it a standby is simply "too far behind". */
  constructor(private readonly keepMs: number) {}

  /** When the primary last answered (whether its position moved or not). */
  private lastAt: number | undefined;

  record(lsn: bigint, at: number): void {
    this.lastAt = at;
    const last = this.samples.at(-1);
    if (last && lsn < last.lsn) {
      // Another server answers as the primary (a promoted standby, which may have missed the old
      // primary's last writes): positions of the old one no longer say anything.
      this.samples = [];
      this.floor = undefined;
    }
    if (this.samples.at(-1)?.lsn !== lsn) this.samples.push({ at, lsn });
    while (this.samples.length > 1 && this.samples[0]!.at < at - this.keepMs) this.floor = this.samples.shift()!.lsn;
  }

  /** Milliseconds behind for a standby that has replayed up to `replayed`; Infinity beyond `keepMs`. */
  lagMs(replayed: bigint, now: number): number {
    if (this.floor !== undefined && replayed < this.floor) return Number.POSITIVE_INFINITY;
    const oldestMissed = this.samples.find((sample) => sample.lsn > replayed);
    return oldestMissed ? Math.max(0, now - oldestMissed.at) : 0;
  }

  /** How long ago the primary last answered; Infinity if it never has. */
  ageMs(now: number): number {
    return this.lastAt === undefined ? Number.POSITIVE_INFINITY : now - this.lastAt;
  }

  /** The newest position sampled, if any. */
  latest(): bigint | undefined {
    return this.samples.at(-1)?.lsn;
  }
}
