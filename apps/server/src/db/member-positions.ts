import { LRUCache } from 'lru-cache';
import { formatLsn, parseLsn } from './lsn';

/**
 * The NOTIFY channel on which every API process announces a staff member's write: the payload is
 * the staff id and the primary's insert position after it, `42 16/B374D848` (ADR 0052).
 */
export const MEMBER_WROTE_CHANNEL = 'broker_member_wrote';

export const memberWrotePayload = (staffId: number, lsn: bigint) => `${staffId} ${formatLsn(lsn)}`;

const PAYLOAD = /^(\d{1,15}) (\S{1,17})$/;

export interface MemberPositionsOptions {
  /** How long a position is kept: the read-your-writes cookie's life, past which every standby in use has it. */
  ttlMs: number;
  /** Members kept at most (the least recently written go first). */
  capacity?: number;
  now?: () => number;
}

/**
 * Each staff member's last write, as the primary's position after it, from this process's own
 * requests and from the other processes' announcements: a member's reads need a standby that has
 * replayed it on whichever device and browser they read from (WeCom on the phone, the desktop
 * sidebar), not only in the browser that holds the cookie. Bounded in size and age; without the
 * announcements (no LISTEN) it holds this process's own writes, and the cookie does the rest.
 */
export class MemberPositions {
  private readonly positions: LRUCache<number, bigint>;

  constructor(options: MemberPositionsOptions) {
    this.positions = new LRUCache({
      max: options.capacity ?? 10_000,
      ttl: options.ttlMs,
      ttlResolution: 0,
      ...(options.now ? { perf: { now: options.now } } : {}),
    });
  }

  /** `staffId` wrote; their reads need `lsn` from now on (never less than a later write's). */
  note(staffId: number, lsn: bigint): void {
    const known = this.positions.get(staffId);
    if (known === undefined || lsn > known) this.positions.set(staffId, lsn);
  }

  /** The position `staffId`'s reads need, if they wrote within the last `ttlMs`. */
  of(staffId: number | undefined): bigint | undefined {
    return staffId === undefined ? undefined : this.positions.get(staffId);
  }

  /** Another process's announcement (MEMBER_WROTE_CHANNEL); anything that is not one is ignored. */
  hear(payload: string): void {
    const match = PAYLOAD.exec(payload);
    const lsn = parseLsn(match?.[2]);
    if (match && lsn !== undefined) this.note(Number(match[1]), lsn);
  }
}
