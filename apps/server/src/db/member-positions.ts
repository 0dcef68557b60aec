import { LRUCache } from 'lru-cache';
import { formatLsn, parseLsn } from './lsn';

/** Every API process announces a staff member's write here as `42 16/B374D848` (ADR 0052). */
export const MEMBER_WROTE_CHANNEL = 'broker_member_wrote';

export const memberWrotePayload = (staffId: number, lsn: bigint) => `${staffId} ${formatLsn(lsn)}`;

const PAYLOAD = /^(\d{1,15}) (\S{1,17})$/;

export interface MemberPositionsOptions {
  /** The read-your-writes cookie's life, past which every standby in use has the position. */
  ttlMs: number;
  /** The least recently written go first. */
  capacity?: number;
  now?: () => number;
}

/**
 * Each staff member's last write position, from this process and the others' announcements, so their reads on
 * any device (WeCom on the phone, the desktop sidebar) see it, not only in the browser holding the cookie.
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

  /** Never lowered by an earlier write's. */
  note(staffId: number, lsn: bigint): void {
    const known = this.positions.get(staffId);
    if (known === undefined || lsn > known) this.positions.set(staffId, lsn);
  }

  of(staffId: number | undefined): bigint | undefined {
    return staffId === undefined ? undefined : this.positions.get(staffId);
  }

  /** Anything that is not an announcement is ignored. */
  hear(payload: string): void {
    const match = PAYLOAD.exec(payload);
    const lsn = parseLsn(match?.[2]);
    if (match && lsn !== undefined) this.note(Number(match[1]), lsn);
  }
}
