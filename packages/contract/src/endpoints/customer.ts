import { z } from 'zod';
import { areaEndpoints } from '../endpoint';
import { ErrorCode } from '../error-codes';
import {
  currencySchema,
  daySchema,
  epochMsSchema,
  moneySchema,
  pagedSchema,
  pagingShape,
  idSchema,
  clientNameShape,
  maskedPhoneSchema,
} from '../common';

/**
 * One client, as a client manager sees it: every call names a client of the caller's book (another's: 090403, unknown:
 * 090404). Foreign-currency rows carry `amount` and `currency` as booked; their `…Hkd` uses the latest rate.
 */
export const clientEndpoint = areaEndpoints({ agent: 'khzl', tag: 'client' });

export const customerIdSchema = idSchema;
export const marketSchema = z.enum(['HK', 'US', 'SH', 'SZ']);
export type Market = z.infer<typeof marketSchema>;
export const customerStatusSchema = z.enum(['active', 'dormant', 'closed']);
export type CustomerStatus = z.infer<typeof customerStatusSchema>;

const byCustomer = z.strictObject({ customerId: customerIdSchema });
/** `dateFrom`/`dateTo` are Hong Kong calendar days, both inclusive. */
const dateRange = { dateFrom: daySchema.optional(), dateTo: daySchema.optional() };

/** A holding's, a trade's or a transfer's security: its symbol, its names and its market. */
const securityShape = {
  symbol: z.string(),
  nameCn: z.string(),
  /** Hong Kong Traditional name; null when the reference data has none (the reader then sees nameCn). */
  nameHk: z.string().nullable(),
  nameEn: z.string(),
  market: marketSchema,
};

/** One of a client's record lists: filtered, paged, with totals (`summary`) over every matching record, not just the page. */
const customerRecordsEndpoint = <Filters extends z.ZodRawShape, Item extends z.ZodType, Totals extends z.ZodRawShape>(list: {
  path: string;
  filters: Filters;
  item: Item;
  totals: Totals;
  summary: string;
}) =>
  clientEndpoint({
    method: 'GET',
    path: list.path,
    request: z.strictObject({ customerId: customerIdSchema, ...list.filters, ...pagingShape }),
    response: pagedSchema(list.item).extend({ summary: z.object(list.totals) }),
    summary: list.summary,
    errors: [ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND],
  });

export const accountSummarySchema = z.object({
  accountNo: z.string(),
  /** cash | margin */
  type: z.string(),
  /** active | closed */
  status: z.string(),
  openDate: daySchema,
});

/** Header of the client profile page. The phone is masked here (`+852 9123 ****`). */
export const customerProfileSchema = z.object({
  ...clientNameShape,
  /** M | F | null */
  gender: z.string().nullable(),
  phoneMasked: maskedPhoneSchema,
  status: customerStatusSchema,
  /** 1 (conservative) … 5 (aggressive). */
  riskLevel: z.number().int(),
  channel: z.string(),
  tags: z.array(z.string()),
  kycBound: z.boolean(),
  /** Bound, but WeCom reported the contact and the manager no longer connected (see kyc.ts). */
  kycStale: z.boolean(),
  openDate: daySchema,
  lastTradeDate: daySchema.nullable(),
  totalAssetsHkd: moneySchema,
  version: z.number().int(),
});
export type CustomerProfile = z.infer<typeof customerProfileSchema>;

/** Base information and the edit form's starting values; the full phone leaves the server only by `revealPhone` (ADR 0039). */
export const customerBaseInfoSchema = z.object({
  ...clientNameShape,
  gender: z.string().nullable(),
  birthday: daySchema.nullable(),
  phoneMasked: maskedPhoneSchema,
  email: z.string().nullable(),
  /** hkid | passport | mainland_id */
  idDocType: z.string(),
  idDocMasked: z.string(),
  idDocExpiry: daySchema.nullable(),
  riskLevel: z.number().int(),
  riskAssessedOn: daySchema.nullable(),
  status: customerStatusSchema,
  channel: z.string(),
  openDate: daySchema,
  closedDate: daySchema.nullable(),
  tags: z.array(z.string()),
  remark: z.string().nullable(),
  accounts: z.array(accountSummarySchema),
  /** Send back unchanged with updateProfile (optimistic locking). */
  version: z.number().int(),
  updatedAt: epochMsSchema,
});
export type CustomerBaseInfo = z.infer<typeof customerBaseInfoSchema>;

export const getProfile = clientEndpoint({
  method: 'GET',
  path: '/api/client/customer/getProfile',
  request: byCustomer,
  response: customerProfileSchema,
  summary: 'Client profile header: names, status, risk, tags, total assets',
  errors: [ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND],
});

export const getBaseInfo = clientEndpoint({
  method: 'GET',
  path: '/api/client/customer/getBaseInfo',
  request: byCustomer,
  response: customerBaseInfoSchema,
  summary: 'Client base information (contact, identity document masked, accounts) and edit version',
  errors: [ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND],
});

export const dynamicKindSchema = z.enum(['trade', 'deposit', 'withdrawal', 'transferIn', 'transferOut', 'profileEdit']);

/** One entry of the activity timeline; which optional fields are set depends on `kind`. */
export const dynamicItemSchema = z.object({
  /** Unique within the timeline, e.g. `trade:123`. */
  key: z.string(),
  kind: dynamicKindSchema,
  at: epochMsSchema,
  /** trade: buy | sell */
  side: z.string().optional(),
  symbol: z.string().optional(),
  securityNameCn: z.string().optional(),
  securityNameHk: z.string().nullable().optional(),
  securityNameEn: z.string().optional(),
  quantity: z.number().optional(),
  price: z.number().optional(),
  amount: moneySchema.optional(),
  currency: z.string().optional(),
  amountHkd: moneySchema.optional(),
  /** profileEdit: the fields that changed, and who changed them. */
  fields: z.array(z.string()).optional(),
  staffName: z.string().nullable().optional(),
});
export type DynamicItem = z.infer<typeof dynamicItemSchema>;

export const getDynamic = clientEndpoint({
  method: 'GET',
  path: '/api/client/customer/getDynamic',
  request: z.strictObject({
    customerId: customerIdSchema,
    /** Only entries strictly older than this (the last `at` of the previous page). */
    before: z.coerce.number().int().nonnegative().max(8.64e15).optional(),
    limit: z.coerce.number().int().min(1).max(50).default(20),
  }),
  response: z.object({ list: z.array(dynamicItemSchema), hasMore: z.boolean() }),
  summary: 'Recent activity: trades, deposits and withdrawals, stock transfers and profile edits, newest first',
  errors: [ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND],
});

export const assetSliceSchema = z.object({
  /** Market code (HK, US, SH, SZ) or currency code, by the list it is in. */
  key: z.string(),
  /** Cash in this currency (by currency only; 0 by market). */
  cashHkd: moneySchema,
  marketValueHkd: moneySchema,
  totalHkd: moneySchema,
  /** Share of total assets, 0–1 (0 when total assets are 0). */
  ratio: z.number(),
  /** By currency: cash plus market value in that currency as booked. */
  amount: moneySchema.optional(),
});

export const customerAssetSchema = z.object({
  totalAssetsHkd: moneySchema,
  cashHkd: moneySchema,
  marketValueHkd: moneySchema,
  /** Σ quantity × (last price − previous close), in HKD. */
  todayPnlHkd: moneySchema,
  /** todayPnl over yesterday's market value; 0 when there was none. */
  todayPnlRatio: z.number(),
  /** Holdings by market; cash belongs to no market (see byCurrency). */
  byMarket: z.array(assetSliceSchema),
  /** Cash and holdings by the currency they are in. */
  byCurrency: z.array(assetSliceSchema),
  /** The day of the prices used, or null with no holdings. */
  priceDate: daySchema.nullable(),
});
export type CustomerAsset = z.infer<typeof customerAssetSchema>;

export const getAsset = clientEndpoint({
  method: 'GET',
  path: '/api/client/customer/getAsset',
  request: byCustomer,
  response: customerAssetSchema,
  summary: "Asset summary: total, cash, market value, today's P/L, allocation by market and by currency",
  errors: [ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND],
});

export const holdingItemSchema = z.object({
  accountNo: z.string(),
  ...securityShape,
  currency: z.string(),
  quantity: z.number(),
  avgCost: z.number(),
  lastPrice: z.number(),
  prevClose: z.number(),
  marketValue: moneySchema,
  marketValueHkd: moneySchema,
  unrealizedPnl: moneySchema,
  unrealizedPnlHkd: moneySchema,
  /** unrealizedPnl over cost, e.g. 0.125 for +12.5%. */
  unrealizedPnlRatio: z.number(),
  todayPnl: moneySchema,
  todayPnlHkd: moneySchema,
});
export type HoldingItem = z.infer<typeof holdingItemSchema>;

export const getHolding = customerRecordsEndpoint({
  path: '/api/client/customer/getHolding',
  filters: { market: marketSchema.optional() },
  item: holdingItemSchema,
  totals: { marketValueHkd: moneySchema, unrealizedPnlHkd: moneySchema, todayPnlHkd: moneySchema },
  summary: 'Holdings, largest first, with market value and P/L; totals for the filtered set',
});

/** Derived: a trade is `unsettled` until its settlement day (Hong Kong time) has come. */
export const tradeStatusSchema = z.enum(['settled', 'unsettled']);

export const tradeItemSchema = z.object({
  id: z.number().int(),
  accountNo: z.string(),
  ...securityShape,
  side: z.enum(['buy', 'sell']),
  quantity: z.number(),
  price: z.number(),
  amount: moneySchema,
  fee: moneySchema,
  currency: z.string(),
  amountHkd: moneySchema,
  tradedAt: epochMsSchema,
  settleDate: daySchema,
  status: tradeStatusSchema,
});
export type TradeItem = z.infer<typeof tradeItemSchema>;

export const getTrade = customerRecordsEndpoint({
  path: '/api/client/customer/getTrade',
  filters: {
    ...dateRange,
    market: marketSchema.optional(),
    side: z.enum(['buy', 'sell']).optional(),
    status: tradeStatusSchema.optional(),
  },
  item: tradeItemSchema,
  totals: { buyAmountHkd: moneySchema, sellAmountHkd: moneySchema, feeHkd: moneySchema },
  summary: 'Trades, newest first, with date, market, side and settlement filters; totals for the filtered set',
});

export const moneyItemSchema = z.object({
  id: z.number().int(),
  accountNo: z.string(),
  direction: z.enum(['deposit', 'withdrawal']),
  currency: z.string(),
  amount: moneySchema,
  amountHkd: moneySchema,
  /** fps | bank_transfer | cheque | edda */
  method: z.string(),
  occurredAt: epochMsSchema,
});
export type MoneyItem = z.infer<typeof moneyItemSchema>;

export const getWithdrawalDeposit = customerRecordsEndpoint({
  path: '/api/client/customer/getWithdrawalDeposit',
  filters: { ...dateRange, direction: z.enum(['deposit', 'withdrawal']).optional(), currency: currencySchema.optional() },
  item: moneyItemSchema,
  totals: { depositHkd: moneySchema, withdrawalHkd: moneySchema, netHkd: moneySchema },
  summary: 'Deposits and withdrawals, newest first, with date, direction and currency filters; totals',
});

export const transferItemSchema = z.object({
  id: z.number().int(),
  accountNo: z.string(),
  direction: z.enum(['in', 'out']),
  ...securityShape,
  currency: z.string(),
  quantity: z.number(),
  /** The other broker or custodian. */
  counterparty: z.string(),
  /** quantity × today's last price, converted to HKD. */
  marketValueHkd: moneySchema,
  occurredAt: epochMsSchema,
});
export type TransferItem = z.infer<typeof transferItemSchema>;

export const getTransfer = customerRecordsEndpoint({
  path: '/api/client/customer/getTransfer',
  filters: { ...dateRange, market: marketSchema.optional(), direction: z.enum(['in', 'out']).optional() },
  item: transferItemSchema,
  totals: { inCount: z.number().int(), outCount: z.number().int(), inValueHkd: moneySchema, outValueHkd: moneySchema },
  summary: 'Stock transfers in and out, newest first, with date, market and direction filters; totals',
});

/** What a client manager may change. Names in Chinese, identity, status and risk come from the back office. */
export const PROFILE_TAG_LIMIT = 10;
export const profileEditSchema = {
  nameEn: z
    .string()
    .trim()
    .min(1)
    .max(80)
    .regex(/^[A-Za-z][A-Za-z .,'-]*$/, "must be letters, spaces and . , ' - only"),
  /** International form: `+852 9123 4567`, `+86 139 1234 5678`; spaces and dashes allowed; null clears it. */
  phone: z
    .string()
    .trim()
    .max(24)
    .regex(/^\+\d{1,3}[ -]?\d[\d -]{5,17}\d$/, 'must be a phone number with country code, like +852 9123 4567')
    .nullable(),
  email: z.string().trim().max(120).pipe(z.email('must be a valid email address')).nullable(),
  tags: z
    .array(z.string().trim().min(1).max(20))
    .max(PROFILE_TAG_LIMIT)
    .refine((tags) => new Set(tags).size === tags.length, 'must not repeat a tag'),
  remark: z.string().trim().max(500).nullable(),
};

export const updateProfile = clientEndpoint({
  method: 'POST',
  path: '/api/client/customer/updateProfile',
  request: z.strictObject({
    customerId: customerIdSchema,
    /** The `version` from getBaseInfo; a newer one on the server answers 090409 and changes nothing. */
    version: z.number().int().positive(),
    ...z.object(profileEditSchema).partial().shape,
  }),
  response: customerBaseInfoSchema,
  summary: 'Edit contact details, tags and remark (fields left out stay as they are); optimistic locking by version',
  errors: [ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND, ErrorCode.CONFLICT],
});

/** Reaching a client (ADR 0039), from the profile, an MOT event and a client-list row (so shared). */
export const customerReachSchema = z.object({
  customerId: z.number().int(),
  nameCn: z.string(),
  nameEn: z.string(),
  phoneMasked: maskedPhoneSchema,
  /** The bound WeCom contact (KYC), null when none; `stale`: WeCom said they are no longer connected. */
  wecom: z.object({ externalUserId: z.string(), stale: z.boolean() }).nullable(),
});
export type CustomerReach = z.infer<typeof customerReachSchema>;

export const getReach = clientEndpoint({
  method: 'GET',
  path: '/api/client/customer/getReach',
  shared: true,
  request: byCustomer,
  response: customerReachSchema,
  summary: 'How to reach a client: the bound WeCom contact to chat with, and whether there is a phone (masked)',
  errors: [ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND],
});

/** Why the full number was asked for: to read it, or to dial it. Both are audited, under their own action. */
export const phoneRevealPurposeSchema = z.enum(['view', 'call']);
export type PhoneRevealPurpose = z.infer<typeof phoneRevealPurposeSchema>;

export const revealPhone = clientEndpoint({
  method: 'POST',
  path: '/api/client/customer/revealPhone',
  shared: true,
  request: z.strictObject({
    customerId: customerIdSchema,
    purpose: phoneRevealPurposeSchema,
  }),
  response: z.object({
    customerId: z.number().int(),
    /** In full, as stored: `+852 9123 4567`; null when the client has no phone on file (nothing is audited then). */
    phone: z.string().nullable(),
    /** `tel:` form of it: digits and the leading +. */
    dial: z.string().nullable(),
  }),
  summary: "A client's full phone number, to read or to dial; each reveal is in the audit trail (who, when, which client); rate-limited",
  errors: [ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND, ErrorCode.PHONE_REVEAL_RATE_LIMITED],
});
