import { hongKongDay, hongKongInstant, addDays, hongKongDateTime } from '@broker/domain';

/** Hong Kong wall-clock hours, `from` inclusive to `until` exclusive; may wrap midnight. */
export interface QuietHours {
  from: string;
  until: string;
}

/** Nothing between 21:00 and 08:00 Hong Kong time (ADR 0042). */
export const DEFAULT_QUIET_HOURS: QuietHours = { from: '21:00', until: '08:00' };

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** `HH:mm-HH:mm` (MOT_PUSH_QUIET_HOURS); `off` or equal ends → none; else null (invalid). */
export function parseQuietHours(text: string): QuietHours | 'off' | null {
  if (text.trim().toLowerCase() === 'off') return 'off';
  const [from, until, extra] = text.split('-').map((part) => part.trim());
  if (!from || !until || extra !== undefined || !TIME.test(from) || !TIME.test(until)) return null;
  return from === until ? 'off' : { from, until };
}

/** `now` outside quiet hours, else their end: deferred, never dropped. */
export function nextSendableAt(now: number, quiet: QuietHours | null): number {
  if (!quiet) return now;
  const clock = hongKongDateTime(now).slice(11);
  const inside = quiet.from < quiet.until ? clock >= quiet.from && clock < quiet.until : clock >= quiet.from || clock < quiet.until;
  if (!inside) return now;
  const today = hongKongDay(now);
  const endToday = hongKongInstant(today, quiet.until)!;
  return endToday > now ? endToday : hongKongInstant(addDays(today, 1), quiet.until)!;
}
