import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { currencySchema, daySchema, moneySchema, pagedSchema, pagingShape } from '../common';
import { customerStatusSchema, marketSchema } from './customer';

/**
 * The client list of the signed-in staff member (agent `khgl`): only their own clients in their
 * corp, ever. Phone numbers and identity documents are masked in every row.
 */

export const channelCodeSchema = z.string().regex(/^[a-z0-9_]{1,32}$/, 'must be a channel code such as branch');

/**
 * Filters shared by search and stat, so the stat header always describes the list under it.
 * `assetMin`/`assetMax` are in `ccy` (default HKD) and converted to HKD with the latest rate.
 * `openDateFrom`/`openDateTo` are inclusive Hong Kong days.
 */
export const customerFilterShape = {
  /**
   * Partial match on the Chinese or English name or any run of phone digits; exact match on an
   * account number or the last four characters of the identity document. Case-insensitive.
   */
  keyword: z.string().trim().max(50).optional(),
  channels: z.array(channelCodeSchema).max(10).optional(),
  statuses: z.array(customerStatusSchema).max(3).optional(),
  ccy: currencySchema.default('HKD'),
  assetMin: z.number().nonnegative().max(1e13).optional(),
  assetMax: z.number().nonnegative().max(1e13).optional(),
  openDateFrom: daySchema.optional(),
  openDateTo: daySchema.optional(),
  /** true: bound to a WeCom contact (KYC); false: not bound. */
  kycBound: z.boolean().optional(),
  /** Holds at least one position in any of these markets. */
  markets: z.array(marketSchema).max(4).optional(),
  hasHolding: z.boolean().optional(),
};

export const sortFieldSchema = z.enum(['totalAssets', 'openDate', 'lastTrade']);

export const customerListItemSchema = z.object({
  customerId: z.number().int(),
  customerNo: z.string(),
  nameCn: z.string(),
  nameEn: z.string(),
  /** e.g. `+852 9123 ****`: the last four digits never leave the server in a list. */
  phoneMasked: z.string().nullable(),
  /** e.g. `A1**4567`, as stored. */
  idDocMasked: z.string(),
  accountNos: z.array(z.string()),
  channel: z.string(),
  status: customerStatusSchema,
  riskLevel: z.number().int(),
  tags: z.array(z.string()),
  kycBound: z.boolean(),
  totalAssetsHkd: moneySchema,
  openDate: daySchema,
  lastTradeDate: daySchema.nullable(),
  /**
   * What the keyword matched, for highlighting: customerNo (the number in any of its forms), name
   * (as written, in the other script, or romanised), phone, account or idDoc; null without keyword.
   */
  matchedOn: z.enum(['customerNo', 'name', 'phone', 'account', 'idDoc']).nullable(),
});
export type CustomerListItem = z.infer<typeof customerListItemSchema>;

export const getChannel = defineEndpoint({
  method: 'GET',
  path: '/api/client/customer/manage/getChannel',
  agent: 'khgl',
  auth: true,
  payload: 'query',
  request: z.strictObject({}),
  response: z.array(z.object({ channel: z.string(), clients: z.number().int() })),
  summary: "The channels of the caller's clients, with how many clients each (filter options)",
  tag: 'manage',
  errors: [],
});

export const searchCustomers = defineEndpoint({
  method: 'POST',
  path: '/api/client/customer/manage/search',
  agent: 'khgl',
  auth: true,
  payload: 'json',
  request: z.strictObject({
    ...customerFilterShape,
    sortBy: sortFieldSchema.default('totalAssets'),
    sortOrder: z.enum(['asc', 'desc']).default('desc'),
    ...pagingShape,
  }),
  response: pagedSchema(customerListItemSchema),
  summary: "Search, filter, sort and page the caller's clients",
  tag: 'manage',
  errors: [],
});

export const customerStatSchema = z.object({
  clients: z.number().int(),
  totalAssetsHkd: moneySchema,
  /** Clients with status active. */
  active: z.number().int(),
  /** Clients whose open date is in the current Hong Kong calendar month. */
  newThisMonth: z.number().int(),
  byChannel: z.array(z.object({ channel: z.string(), clients: z.number().int(), totalAssetsHkd: moneySchema })),
});
export type CustomerStat = z.infer<typeof customerStatSchema>;

export const statCustomers = defineEndpoint({
  method: 'POST',
  path: '/api/client/customer/manage/stat',
  agent: 'khgl',
  auth: true,
  payload: 'json',
  request: z.strictObject(customerFilterShape),
  response: customerStatSchema,
  summary: "Counts and totals of the caller's clients matching the same filters as search",
  tag: 'manage',
  errors: [],
});
