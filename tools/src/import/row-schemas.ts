import { customerStatusSchema, daySchema, marketSchema } from '@broker/contract';
import { z } from 'zod';

/** One schema per back-office file; cells arrive as strings, empty means absent. docs/importer.md documents every column. */

const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());

/** With an offset, or Hong Kong time without one; a real day (the contract's rule) and a real time of day. */
const timestamp = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}[ T]([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?(Z|[+-](0\d|1[0-4])(:?[0-5]\d)?)?$/,
    'must be a timestamp YYYY-MM-DD HH:MM[:SS][+08:00]',
  )
  .refine((value) => daySchema.safeParse(value.slice(0, 10)).success, 'must be a real calendar day between 1900-01-01 and 2999-12-31')
  .transform((value) => (/(Z|[+-]\d{2}(:?\d{2})?)$/.test(value.slice(10)) ? value : `${value}+08:00`));

const decimal = (label: string, scale: number) =>
  z
    .string()
    .trim()
    .regex(new RegExp(`^-?\\d{1,16}(\\.\\d{1,${scale}})?$`), `${label} must be a number with at most ${scale} decimals`);
const positiveDecimal = (label: string, scale: number) =>
  decimal(label, scale).refine((value) => Number(value) > 0, `${label} must be greater than 0`);
const nonNegativeDecimal = (label: string, scale: number) =>
  decimal(label, scale).refine((value) => Number(value) >= 0, `${label} must not be negative`);
const wholeNumber = (label: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,15}$/, `${label} must be a whole number`)
    .transform(Number);
const currency = z
  .string()
  .trim()
  .regex(/^[A-Z]{3}$/, 'must be a 3-letter currency code such as HKD');
const reference = (label: string) => z.string().trim().min(1, `${label} is required`).max(64, `${label} is too long`);

export const exchangeRateRow = z.object({
  currency,
  rate_date: daySchema,
  rate: positiveDecimal('rate', 8),
  source: optional(z.string().trim().max(40)),
});

export const priceRow = z.object({
  symbol: z
    .string()
    .trim()
    .regex(/^[0-9A-Z.]{1,16}$/, 'must be a ticker such as 0700.HK or AAPL'),
  market: marketSchema,
  name_cn: z.string().trim().min(1, 'name_cn is required'),
  /** Hong Kong Traditional name (ADR 0048); left out, the stored one stays. */
  name_hk: optional(z.string().trim().max(80, 'name_hk is too long')),
  name_en: z.string().trim().min(1, 'name_en is required'),
  currency,
  lot_size: wholeNumber('lot_size').refine((value) => value >= 1, 'lot_size must be at least 1'),
  last_price: positiveDecimal('last_price', 4),
  prev_close: positiveDecimal('prev_close', 4),
  price_date: daySchema,
});

export const customerRow = z
  .object({
    customer_no: reference('customer_no'),
    staff_userid: reference('staff_userid'),
    channel: z.enum(['branch', 'online', 'wealth', 'ifa']),
    name_cn: z.string().trim().min(1, 'name_cn is required').max(50),
    name_en: z.string().trim().min(1, 'name_en is required').max(100),
    gender: optional(z.enum(['M', 'F'])),
    phone: optional(
      z
        .string()
        .trim()
        .regex(/^\+?[\d\s-]{8,20}$/, 'phone must be digits, optionally with + and spaces')
        .refine((value) => {
          const digits = value.replace(/\D/g, '');
          return (
            digits.length === 8 ||
            (digits.startsWith('852') && digits.length === 11) ||
            (digits.startsWith('86') && digits.length === 13) ||
            value.startsWith('+')
          );
        }, 'phone must be an 8-digit Hong Kong number or carry a country code'),
    ),
    email: optional(z.email('email is not an email address')),
    id_doc_type: z.enum(['hkid', 'mainland_id', 'passport']),
    id_doc_number: z
      .string()
      .trim()
      .regex(/^[0-9A-Za-z()]{6,20}$/, 'id_doc_number must be 6-20 letters and digits'),
    id_doc_expiry: optional(daySchema),
    birthday: optional(daySchema),
    risk_level: wholeNumber('risk_level').refine((value) => value >= 1 && value <= 5, 'risk_level must be 1 to 5'),
    risk_assessed_on: optional(daySchema),
    status: customerStatusSchema,
    open_date: daySchema,
    closed_date: optional(daySchema),
    tags: optional(z.string()),
    remark: optional(z.string().max(500)),
    account_no: reference('account_no'),
    account_type: z.enum(['cash', 'margin']),
  })
  .refine((row) => row.status !== 'closed' || row.closed_date !== undefined, {
    message: 'a closed customer needs closed_date',
    path: ['closed_date'],
  })
  .refine((row) => row.closed_date === undefined || row.closed_date >= row.open_date, {
    message: 'closed_date is before open_date',
    path: ['closed_date'],
  });

export const cashBalanceRow = z.object({
  account_no: reference('account_no'),
  currency,
  balance: decimal('balance', 2),
});

export const holdingRow = z.object({
  account_no: reference('account_no'),
  symbol: reference('symbol'),
  quantity: wholeNumber('quantity'),
  avg_cost: nonNegativeDecimal('avg_cost', 4),
});

export const tradeRow = z.object({
  trade_ref: reference('trade_ref'),
  account_no: reference('account_no'),
  symbol: reference('symbol'),
  side: z.enum(['buy', 'sell']),
  quantity: wholeNumber('quantity').refine((value) => value > 0, 'quantity must be greater than 0'),
  price: positiveDecimal('price', 4),
  amount: optional(nonNegativeDecimal('amount', 2)),
  fee: nonNegativeDecimal('fee', 2),
  currency,
  traded_at: timestamp,
  settle_date: daySchema,
});

export const moneyMovementRow = z.object({
  movement_ref: reference('movement_ref'),
  account_no: reference('account_no'),
  direction: z.enum(['deposit', 'withdrawal']),
  currency,
  amount: positiveDecimal('amount', 2),
  method: z.enum(['fps', 'bank_transfer', 'cheque', 'edda', 'other']),
  occurred_at: timestamp,
});

export const transferRow = z.object({
  transfer_ref: reference('transfer_ref'),
  account_no: reference('account_no'),
  symbol: reference('symbol'),
  direction: z.enum(['in', 'out']),
  quantity: wholeNumber('quantity').refine((value) => value > 0, 'quantity must be greater than 0'),
  counterparty: z.string().trim().min(1, 'counterparty is required').max(100),
  occurred_at: timestamp,
});

/** Turns the first zod issue into a one-line reason a back-office clerk can act on. */
export function describeIssue(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const column = issue.path.join('.');
      if (issue.code === 'invalid_type' && issue.input === undefined) return `${column} is required`;
      return issue.message.startsWith(column) || !column ? issue.message : `${column}: ${issue.message}`;
    })
    .join('; ');
}
