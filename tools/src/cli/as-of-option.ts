import { hongKongDay, isCalendarDay } from '@broker/domain';
import { UsageError } from './tool-errors';

/** A tool's `--as-of` day: a real `YYYY-MM-DD`, by default today in Hong Kong, as the server takes "today". */
export function asOfOption(value: string | undefined, now: Date = new Date()): string {
  if (value === undefined) return hongKongDay(now);
  if (!isCalendarDay(value)) throw new UsageError(`--as-of must be a real day written YYYY-MM-DD (got ${JSON.stringify(value)})`);
  return value;
}
