import { z } from 'zod';
import { areaEndpoints } from '../endpoint';
import { currencySchema, daySchema, moneySchema, pagedSchema, pagingShape, clientNameShape, maskedPhoneSchema } from '../common';
import { customerStatusSchema, marketSchema } from './customer';

export const manageEndpoint = areaEndpoints({ agent: 'khgl', tag: 'manage' });

/** The caller's client list: only their own clients, phone numbers and identity documents masked in every row. */

export const channelCodeSchema = z.string().regex(/^[a-z0-9_]{1,32}$/, 'must be a channel code such as branch');

/** Filters shared by search and stat (so the header describes the list); asset bounds in `ccy`, dates inclusive Hong Kong days. */
export const customerFilterShape = {
  /** Part of a name or of the phone digits, or an account number or the ID document's last four exactly; any case (ADR 0046). */
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
  ...clientNameShape,
  phoneMasked: maskedPhoneSchema,
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
  /** What the keyword matched, for highlighting; null without a keyword. */
  matchedOn: z.enum(['customerNo', 'name', 'phone', 'account', 'idDoc']).nullable(),
});
export type CustomerListItem = z.infer<typeof customerListItemSchema>;

export const getChannel = manageEndpoint({
  method: 'GET',
  path: '/api/client/customer/manage/getChannel',
  request: z.strictObject({}),
  response: z.array(z.object({ channel: z.string(), clients: z.number().int() })),
  summary: "The channels of the caller's clients, with how many clients each (filter options)",
});

export const searchCustomers = manageEndpoint({
  method: 'POST',
  path: '/api/client/customer/manage/search',
  request: z.strictObject({
    ...customerFilterShape,
    sortBy: sortFieldSchema.default('totalAssets'),
    sortOrder: z.enum(['asc', 'desc']).default('desc'),
    ...pagingShape,
  }),
  response: pagedSchema(customerListItemSchema),
  summary: "Search, filter, sort and page the caller's clients",
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

export const statCustomers = manageEndpoint({
  method: 'POST',
  path: '/api/client/customer/manage/stat',
  request: z.strictObject(customerFilterShape),
  response: customerStatSchema,
  summary: "Counts and totals of the caller's clients matching the same filters as search",
});
