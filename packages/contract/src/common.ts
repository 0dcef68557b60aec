import { z } from 'zod';

export const currencySchema = z.enum(['HKD', 'USD', 'CNY']);
export type Currency = z.infer<typeof currencySchema>;
export const DEFAULT_CURRENCY: Currency = 'HKD';

/** Timestamps cross the wire as epoch milliseconds. */
export const epochMsSchema = z.number().int().nonnegative();
