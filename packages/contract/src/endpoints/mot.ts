import { z } from 'zod';
import { areaEndpoints } from '../endpoint';
import { ErrorCode } from '../error-codes';
import {
  daySchema,
  epochMsSchema,
  moneySchema,
  pagedSchema,
  pagingShape,
  idSchema,
  withDayRangeCheck,
  clientNameShape,
  maskedPhoneSchema,
} from '../common';
import { customerIdSchema } from './customer';
import { contactChannelSchema } from './contact';

export const motEndpoint = areaEndpoints({ agent: 'mot', tag: 'mot' });

/**
 * MOT ("moments of truth"): the to-do list of events the rules raised for the caller's clients, handling them, and the
 * service history. Another manager's event or client answers 090403, an unknown one 090404.
 */

export const motRuleSchema = z.enum([
  'birthday',
  'large_deposit',
  'large_withdrawal',
  'transfer_in',
  'transfer_out',
  'dormant',
  'position_loss',
  'unfunded',
  'anniversary',
  'id_expiry',
  'risk_expiry',
  /** WeCom reported that the customer's chat contact and their manager are no longer connected. */
  'contact_removed',
  /** A contact record's next step is due (facts: recordId — the record's thread id — and nextStep). Raised by the contact log, not the daily sweep. */
  'follow_up',
  /** Net assets below zero (a margin loan larger than what the client holds): facts netAssetsHkd, cashHkd, marketValueHkd, shortfallHkd. */
  'negative_equity',
  /** One position is more than a set share of the client's assets (facts: the position, its share and the thresholds). */
  'concentration',
  /** Contact particulars (phone, email) changed, then a large withdrawal within days: the account-takeover pattern. */
  'particulars_changed_withdrawal',
  /** A client aged 65 or more made a large withdrawal (facts.trigger `withdrawal`) or a first trade in a market (`new_market`). */
  'vulnerable_client',
]);
export type MotRule = z.infer<typeof motRuleSchema>;
export const MOT_RULES = motRuleSchema.options;

/** new → seen → handled. */
export const motStatusSchema = z.enum(['new', 'seen', 'handled']);
export type MotStatus = z.infer<typeof motStatusSchema>;

/** A service record is a contact record (ADR 0038): the same channels, email included. */
export const serviceChannelSchema = contactChannelSchema;
export type ServiceChannel = z.infer<typeof serviceChannelSchema>;

export const motEventIdSchema = idSchema;

/**
 * Why an event fired: the values the rule looked at and the thresholds they crossed, flat, e.g.
 * `{ amountHkd: 250000, thresholdHkd: 100000, currency: 'USD', amount: 32000, … }`.
 */
export const motFactsSchema = z.record(
  // camelCase names only (tests refuse others): a `__proto__` key would set the prototype of the object a reader builds.
  z.string().regex(/^[a-z][A-Za-z0-9]*$/),
  z.union([z.string(), z.number(), z.boolean(), z.null()]),
);
export type MotFacts = z.infer<typeof motFactsSchema>;

export const motEventBriefSchema = z.object({
  eventId: z.number().int(),
  rule: motRuleSchema,
  status: motStatusSchema,
  dueDate: daySchema,
  /** Why it fired: lets a list say which stock, amount or date without opening the event. */
  facts: motFactsSchema,
  /** Put off to this due day by a snooze (ADR 0041). Absent from older servers. */
  snoozed: z.boolean().optional(),
});

/** A row of the MOT home. Folded: one row per client with all its events; unfolded: one row per event. */
export const motTodoRowSchema = z.object({
  ...clientNameShape,
  phone: maskedPhoneSchema,
  /** At least one of the row's events has not been opened yet. */
  unseen: z.boolean(),
  events: z.array(motEventBriefSchema),
});
export type MotTodoRow = z.infer<typeof motTodoRowSchema>;

export const serviceRecordSchema = z.object({
  recordId: z.number().int(),
  customerId: z.number().int(),
  customerName: z.string(),
  eventId: z.number().int().nullable(),
  rule: motRuleSchema.nullable(),
  channel: serviceChannelSchema,
  note: z.string(),
  outcome: z.string().nullable(),
  servedAt: epochMsSchema,
});
export type ServiceRecord = z.infer<typeof serviceRecordSchema>;

export const motCustomerSummarySchema = z.object({
  ...clientNameShape,
  phone: maskedPhoneSchema,
  status: z.string(),
  riskLevel: z.number().int(),
  openDate: daySchema,
  totalAssetsHkd: moneySchema,
  lastTradeDate: daySchema.nullable(),
});
export type MotCustomerSummary = z.infer<typeof motCustomerSummarySchema>;

export const motEventSchema = motEventBriefSchema.extend({
  customerId: z.number().int(),
  createdAt: epochMsSchema,
  seenAt: epochMsSchema.nullable(),
  handledAt: epochMsSchema.nullable(),
  /** The service record written when the event was handled. */
  serviceRecord: serviceRecordSchema.nullable(),
});
export type MotEvent = z.infer<typeof motEventSchema>;

export const getTodoDates = motEndpoint({
  method: 'GET',
  path: '/api/mot/todoEvent/todoClient/date',
  request: withDayRangeCheck(z.strictObject({ dateFrom: daySchema.optional(), dateTo: daySchema.optional() })),
  response: z.array(z.object({ date: daySchema, count: z.number().int(), unseen: z.number().int() })),
  summary: 'Days with pending (new or seen) events and their counts; default range: 30 days back to 30 days ahead',
});

export const getTodoClients = motEndpoint({
  method: 'GET',
  path: '/api/mot/todoEvent/todoClient',
  request: z.strictObject({ date: daySchema.optional(), rule: motRuleSchema.optional(), ...pagingShape }),
  response: pagedSchema(motTodoRowSchema).extend({ fold: z.boolean() }),
  summary: "Pending events due on a day (default today), one row per client when the caller's fold flag is on, else one per event",
  errors: [ErrorCode.NOT_FOUND],
});

export const markEventsSeen = motEndpoint({
  method: 'POST',
  path: '/api/mot/todoEvent/seen',
  request: z.strictObject({ eventIds: z.array(motEventIdSchema).min(1, 'must name at least one event').max(200) }),
  response: z.object({ updated: z.number().int() }),
  summary: 'Mark events as seen (new → seen); seen or handled events stay as they are',
  errors: [ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND],
});

export const handleEvent = motEndpoint({
  method: 'POST',
  path: '/api/mot/todoEvent/handle',
  request: z.strictObject({
    eventId: motEventIdSchema,
    channel: serviceChannelSchema,
    note: z.string().trim().min(1, 'must not be empty').max(1000),
    outcome: z.string().trim().max(200).nullable().optional(),
    /** When the client was served; default now. */
    servedAt: epochMsSchema.optional(),
  }),
  response: serviceRecordSchema,
  summary: 'Handle an event: writes its service record; an event already handled answers 090409',
  errors: [ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND, ErrorCode.CONFLICT],
});

export const getTodoTaskCount = motEndpoint({
  method: 'GET',
  path: '/api/mot/todoEvent/todoTaskCount',
  request: z.strictObject({ date: daySchema.optional() }),
  response: z.object({
    total: z.number().int(),
    unseen: z.number().int(),
    byRule: z.array(z.object({ rule: motRuleSchema, count: z.number().int(), unseen: z.number().int() })),
  }),
  summary: 'Pending events by type, for one day or (without date) all pending',
});

export const getTodoTaskDetail = motEndpoint({
  method: 'GET',
  path: '/api/mot/todoEvent/todoTaskDetail',
  request: z.strictObject({ eventId: motEventIdSchema }),
  response: z.object({ event: motEventSchema, customer: motCustomerSummarySchema }),
  summary: 'One event with the facts that made it fire, and its client',
  errors: [ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND],
});

const minCashIoSchema = z.object({
  /** Large deposit / withdrawal threshold, in HKD. */
  minCashIO: moneySchema,
});

export const getMinCashIO = motEndpoint({
  method: 'POST',
  path: '/api/mot/todoEventRule/getMinCashIO',
  payload: 'none',
  request: z.strictObject({}),
  response: minCashIoSchema,
  summary: "The caller's large deposit / withdrawal threshold (HKD)",
  errors: [ErrorCode.NOT_FOUND],
});

export const setMinCashIO = motEndpoint({
  method: 'POST',
  path: '/api/mot/todoEventRule/setMinCashIO',
  request: z.strictObject({ minCashIO: z.number().min(1, 'must be at least 1').max(1e12, 'must be at most 1,000,000,000,000') }),
  response: minCashIoSchema,
  summary:
    'Change the threshold: the to-do list shows only large-money events at or above it; movements of the last 7 days are re-evaluated',
});

export const searchServiceHistory = motEndpoint({
  method: 'POST',
  path: '/api/mot/todoEvent/history',
  request: withDayRangeCheck(
    z.strictObject({
      /** Part of the note, outcome or client name. */
      keyword: z.string().trim().max(50).optional(),
      rule: motRuleSchema.optional(),
      channel: serviceChannelSchema.optional(),
      dateFrom: daySchema.optional(),
      dateTo: daySchema.optional(),
      pageNum: z.number().int().min(1).max(500).default(1),
      pageSize: z.number().int().min(1).max(50).default(20),
    }),
  ),
  response: pagedSchema(serviceRecordSchema),
  summary: "Search the caller's service records by keyword, event type and served date, newest first",
});

export const getClientHistory = motEndpoint({
  method: 'POST',
  // The double slash is the product's path (docs/spec.md §7).
  path: '/api/mot//todoEvent/clientHistory',
  request: z.strictObject({
    customerId: customerIdSchema,
    pageNum: z.number().int().min(1).max(500).default(1),
    pageSize: z.number().int().min(1).max(50).default(20),
  }),
  response: pagedSchema(motEventSchema).extend({ customer: motCustomerSummarySchema }),
  summary: "One client's events of every status, newest first, each with its service record",
  errors: [ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND],
});

export const setFold = motEndpoint({
  method: 'POST',
  path: '/api/mot/todoEventRule/setFold',
  payload: 'form',
  request: z.strictObject({
    isFold: z
      .union([z.boolean(), z.enum(['true', 'false', '1', '0'], { error: 'must be true or false' })])
      .transform((value) => value === true || value === 'true' || value === '1'),
  }),
  response: z.boolean(),
  summary: 'Set the MOT fold flag (multipart form-data field isFold: true | false)',
});
