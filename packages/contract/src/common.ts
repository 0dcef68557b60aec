import { z } from 'zod';

export const currencySchema = z.enum(['HKD', 'USD', 'CNY']);
export type Currency = z.infer<typeof currencySchema>;
export const DEFAULT_CURRENCY: Currency = 'HKD';

/** The languages the app is shown in (the web's i18n); zh-CN is every language's fallback and the default. */
export const APP_LANGUAGES = ['zh-CN', 'zh-HK', 'en'] as const;
export const appLanguageSchema = z.enum(APP_LANGUAGES, { error: 'must be zh-CN, zh-HK or en' });
export type AppLanguage = z.infer<typeof appLanguageSchema>;

const ID_RULE = 'must be a whole number above 0 written in digits, such as 12';

/** Every id a request names: a whole JSON number, or only its digits in a query string (`"1e3"`, `" 12"`, `"0x10"` refused). */
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

/** The client a row is about, named as every list names it. */
export const clientNameShape = { customerId: z.number().int(), customerNo: z.string(), nameCn: z.string(), nameEn: z.string() };

/** A phone as a screen may show it: `+852 9123 ****` (masking.ts); null without one. */
export const maskedPhoneSchema = z.string().nullable();

/** Timestamps cross the wire as epoch milliseconds. */
export const epochMsSchema = z.number().int().nonnegative();

const DAY_SHAPE = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** A day that exists (no 2026-02-30) in years the business can mean: PostgreSQL refused others with a 500. */
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

/** A request's `dateFrom`/`dateTo` (Hong Kong days, inclusive): dateTo must not be before dateFrom. */
export const withDayRangeCheck = <Range extends z.ZodType<{ dateFrom?: string | undefined; dateTo?: string | undefined }>>(schema: Range) =>
  schema.refine((range) => !range.dateFrom || !range.dateTo || range.dateFrom <= range.dateTo, {
    message: 'dateTo: must not be before dateFrom',
    path: ['dateTo'],
  });

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

/** A paged response's fields, from the page's rows, the total matching and the request's paging. */
export const paged = <T>(list: T[], total: number, page: { pageNum: number; pageSize: number }) => ({
  list,
  total,
  pageNum: page.pageNum,
  pageSize: page.pageSize,
  hasMore: page.pageNum * page.pageSize < total,
});

/** Money on the wire: a number rounded to 2 decimals; `…Hkd` amounts in HKD (docs/spec.md §9), others in the row's `currency`. */
export const moneySchema = z.number();
