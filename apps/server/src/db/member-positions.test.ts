import { describe, expect, it } from 'vitest';
import { MemberPositions, memberWrotePayload } from './member-positions';

describe('MemberPositions: each staff member’s last write, shared between API processes', () => {
  it('keeps the furthest position of each member, from this process and from the others’ announcements', () => {
    const positions = new MemberPositions({ ttlMs: 15_000 });
    positions.note(7, 0x2000n);
    positions.hear(memberWrotePayload(7, 0x1000n));
    expect(positions.of(7)).toBe(0x2000n);
    positions.hear(memberWrotePayload(7, 0x3_0000_0000n));
    expect(positions.of(7)).toBe(0x3_0000_0000n);
    positions.hear('8 16/B374D848');
    expect(positions.of(8)).toBe((0x16n << 32n) | 0xb374d848n);
    expect(positions.of(9)).toBeUndefined();
    expect(positions.of(undefined)).toBeUndefined();
  });

  it.each(['', '*', '7', '7 ', 'x 0/1', '7 0/1 more', '-7 0/1', `7 ${'F'.repeat(20)}/0`, '7 not-an-lsn', `${'9'.repeat(40)} 0/1`])(
    'ignores %j',
    (payload) => {
      const positions = new MemberPositions({ ttlMs: 15_000 });
      positions.hear(payload);
      expect(positions.of(7)).toBeUndefined();
    },
  );

  it('forgets a position once the cookie would have expired, and holds a bounded number of members', () => {
    let now = 1_000;
    const positions = new MemberPositions({ ttlMs: 15_000, capacity: 3, now: () => now });
    positions.note(1, 0x10n);
    now += 14_999;
    expect(positions.of(1)).toBe(0x10n);
    now += 2;
    expect(positions.of(1)).toBeUndefined();
    for (const staffId of [2, 3, 4, 5]) positions.note(staffId, 0x10n);
    expect([2, 3, 4, 5].map((staffId) => positions.of(staffId))).toEqual([undefined, 0x10n, 0x10n, 0x10n]);
  });
});
