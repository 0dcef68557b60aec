import { z } from 'zod';

export const currencySchema = z.enum(['HKD', 'USD', 'CNY']);
export type Currency = z.infer<typeof currencySchema>;
export const DEFAULT_CURRENCY: Currency = 'HKD';

/** The languages the app is shown in (the web's i18n); zh-CN is every language's fallback and the default. */
export const APP_LANGUAGES = ['zh-CN', 'zh-HK', 'en'] as const;
export const appLanguageSchema = z.enum(APP_LANGUAGES, { error: 'must be zh-CN, zh-HK or en' });
export type AppLanguage = z.infer<typeof appLanguageSchema>;
export const DEFAULT_APP_LANGUAGE: AppLanguage = 'zh-CN';

const ID_RULE = 'must be a whole number above 0 written in digits, such as 12';

/**
 * Every id a request names (a customer, an event, a record, a saved filter). A query string carries it
 * as text and JSON as a number: either way only the digits of a whole number (`12`, `"12"`). zod's
 * coercion read `"1e3"` as 1000 and `" 12"` as 12, another id than the client wrote; these, `"1.0"`
 * and `"0x10"` are refused naming the rule (a JSON `1e3` is refused by the JSON parser, json-body.ts).
 */
export const idSchema = z.union(
  [
    z.number({ error: ID_RULE }).int(ID_RULE).positive(ID_RULE),
    z
      .string()
      .regex(/^[1-9]\d{0,15}$/, ID_RULE)
      .transform(Number)
      .pipe(z.number().int(ID_RULE)),
  ],
  { error: (issue) => (issue.input === undefined ? 'is required' : ID_RULE) },
);

/** Timestamps cross the wire as epoch milliseconds. */
export const epochMsSchema = z.number().int().nonnegative();

const DAY_SHAPE = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/**
 * A day that exists (no 2026-02-30) in years the business can mean. The shape alone let
 * `0000-10-31` and `2026-02-31` through to PostgreSQL, which refused them with a 500.
 */
const isRealDay = (text: string) => {
  const match = DAY_SHAPE.exec(text);
  if (!match) return true; // the shape check reports it
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return year >= 1900 && year <= 2999 && new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day;
};

/** A calendar day, `YYYY-MM-DD`, meant in Hong Kong time. */
export const daySchema = z
  .string()
  .regex(DAY_SHAPE, 'must be a date like 2026-01-31')
  .refine(isRealDay, 'must be a real calendar day between 1900-01-01 and 2999-12-31');

/** Listing pages through at most 500 pages of at most 50: deep offsets are slow and nobody scrolls that far. */
export const MAX_PAGE_NUM = 500;
export const MAX_PAGE_SIZE = 50;

/** `pageNum` (from 1) and `pageSize` (1–50, default 20). Coerced, so they work in a query string too. */
export const pagingShape = {
  pageNum: z.coerce.number().int().min(1).max(MAX_PAGE_NUM).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(20),
};

/** Every paged response: the page's rows, the total matching, and whether another page exists. */
export const pagedSchema = <Item extends z.ZodType>(item: Item) =>
  z.object({
    list: z.array(item),
    total: z.number().int().nonnegative(),
    pageNum: z.number().int().positive(),
    pageSize: z.number().int().positive(),
    hasMore: z.boolean(),
  });

/**
 * Money on the wire: a JSON number rounded to 2 decimals. Amounts named `…Hkd` are in HKD; the
 * web converts them for display by multiplying by the chosen currency's rate (SPEC §9).
 * Amounts without the suffix are in the row's own `currency`.
 */
export const moneySchema = z.number();
