import { hongKongDay, isCalendarDay } from '@broker/domain';
import { UsageError } from './tool-errors';

/**
 * The `--as-of` day of a tool: checked to be a real `YYYY-MM-DD`, and by default today in Hong Kong,
 * the one calendar the seed, the MOT batch and the server all take "today" from.
 */
export function asOfOption(value: string | undefined, now: Date = new Date()): string {
  if (value === undefined) return hongKongDay(now);
  if (!isCalendarDay(value)) throw new UsageError(`--as-of must be a real day written YYYY-MM-DD (got ${JSON.stringify(value)})`);
  return value;
}
