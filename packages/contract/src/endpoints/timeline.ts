import { z } from 'zod';
import { ErrorCode } from '../error-codes';
import { daySchema, epochMsSchema, moneySchema } from '../common';
import { clientEndpoint, customerIdSchema } from './customer';
import { contactChannelSchema, contactPurposeSchema } from './contact';

/** One client's timeline (ADR 0040), newest first; a `customer` endpoint in a file of its own because contact.ts imports customer.ts. */

/** What the filter picks from. `trade` is left out unless asked for: see TIMELINE_DEFAULT_KINDS. */
export const timelineKindSchema = z.enum(['contact', 'mot', 'kyc', 'profileEdit', 'money', 'transfer', 'trade']);
export type TimelineKind = z.infer<typeof timelineKindSchema>;
export const TIMELINE_KINDS = timelineKindSchema.options;
/** Without a filter, every kind but trades, which would bury the relationship under them (ADR 0040). */
export const TIMELINE_DEFAULT_KINDS: readonly TimelineKind[] = TIMELINE_KINDS.filter((kind) => kind !== 'trade');

/** Where a page ends: the last item's instant in microseconds (the database's precision), a rank within it, its id. */
export interface TimelineCursor {
  atMicros: number;
  /** 0–15: items of one instant are ordered by this, then by id, both descending. */
  rank: number;
  id: number;
}
const CURSOR_SHAPE = /^(\d{1,16})\.(\d|1[0-5])\.(\d{1,16})$/;
export const TIMELINE_CURSOR_MAX_RANK = 15;

export const timelineCursorText = (cursor: TimelineCursor) => `${cursor.atMicros}.${cursor.rank}.${cursor.id}`;

/** The one check of a cursor from a request: its shape, and each part within range; null when it is not one. */
export function parseTimelineCursor(text: string): TimelineCursor | null {
  const match = CURSOR_SHAPE.exec(text);
  if (!match) return null;
  const [atMicros, rank, id] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // Instants and ids within what a JSON number carries exactly (an instant of 2^53 µs is in the year 2255).
  if (!Number.isSafeInteger(atMicros) || rank > TIMELINE_CURSOR_MAX_RANK || !Number.isSafeInteger(id)) return null;
  return { atMicros, rank, id };
}

export const timelineCursorSchema = z
  .string()
  .max(40)
  .regex(CURSOR_SHAPE, 'must be the nextCursor of a previous page')
  .transform((text, ctx) => {
    const cursor = parseTimelineCursor(text);
    if (!cursor) {
      ctx.addIssue({ code: 'custom', message: 'must be the nextCursor of a previous page' });
      return z.NEVER;
    }
    return cursor;
  });

/** `kinds=contact&kinds=mot` (or one `kinds=contact`): a query string repeats the key for each. */
const kindsSchema = z
  .union([timelineKindSchema.transform((kind) => [kind]), z.array(timelineKindSchema).min(1).max(TIMELINE_KINDS.length)])
  .transform((kinds) => [...new Set(kinds)]);

/** A field of the profile as it was and became; phone numbers masked as everywhere else. */
export const timelineChangeSchema = z.object({ field: z.string(), before: z.unknown(), after: z.unknown() });

/** What happened to an MOT event at this point of the timeline. */
export const timelineMotStageSchema = z.enum(['raised', 'seen', 'handled']);

/** bind / unbind by a manager (or WeCom's 「联系我」), stale / fresh as WeCom's callback reported the contact. */
export const timelineKycActionSchema = z.enum(['bind', 'unbind', 'stale', 'fresh']);

const securityNamesShape = {
  symbol: z.string(),
  securityNameCn: z.string(),
  securityNameHk: z.string().nullable(),
  securityNameEn: z.string(),
};

/** One item. Exactly one of the kind-named objects is set: the one `kind` names. */
export const timelineItemSchema = z.object({
  /** Unique within the timeline, e.g. `trade:123`, `mot:seen:45`. */
  key: z.string(),
  kind: timelineKindSchema,
  at: epochMsSchema,
  /** Who did it: the contact's author, the editor, who bound or unbound, who handled an event; null: the system. */
  staffName: z.string().nullable(),
  contact: z
    .object({
      /** The version shown (the latest); open it with getContactRecord. */
      recordId: z.number().int(),
      threadId: z.number().int(),
      version: z.number().int(),
      channel: contactChannelSchema,
      purpose: contactPurposeSchema,
      /** The note's first 140 characters (the record holds the rest). */
      note: z.string(),
      outcome: z.string().nullable(),
      nextStep: z.string().nullable(),
      nextStepDate: daySchema.nullable(),
    })
    .optional(),
  mot: z
    .object({
      eventId: z.number().int(),
      /** The rule (a string, so an older web survives a newer rule). */
      rule: z.string(),
      stage: timelineMotStageSchema,
      dueDate: daySchema,
    })
    .optional(),
  kyc: z
    .object({
      action: timelineKycActionSchema,
      /** How it came about when not by a manager's tap: `contact_me` (a QR code), `wecom_callback`. */
      via: z.string().nullable(),
    })
    .optional(),
  profileEdit: z.object({ changes: z.array(timelineChangeSchema) }).optional(),
  /** Only large movements: at or above the manager's large cash in/out threshold (getMinCashIO), in HKD at the latest rate. */
  money: z
    .object({
      movementId: z.number().int(),
      direction: z.enum(['deposit', 'withdrawal']),
      amount: moneySchema,
      currency: z.string(),
      /** At the latest rate, as the money records page shows it. */
      amountHkd: moneySchema,
      /** fps | bank_transfer | cheque | edda */
      method: z.string(),
    })
    .optional(),
  transfer: z
    .object({
      transferId: z.number().int(),
      direction: z.enum(['in', 'out']),
      ...securityNamesShape,
      quantity: z.number(),
      counterparty: z.string(),
    })
    .optional(),
  trade: z
    .object({
      tradeId: z.number().int(),
      side: z.enum(['buy', 'sell']),
      ...securityNamesShape,
      quantity: z.number(),
      price: z.number(),
      amount: moneySchema,
      currency: z.string(),
      amountHkd: moneySchema,
    })
    .optional(),
});
export type TimelineItem = z.infer<typeof timelineItemSchema>;

export const getTimeline = clientEndpoint({
  method: 'GET',
  path: '/api/client/customer/getTimeline',
  request: z.strictObject({
    customerId: customerIdSchema,
    /** The kinds to show; default TIMELINE_DEFAULT_KINDS (everything but trades). */
    kinds: kindsSchema.optional(),
    /** The `nextCursor` of the previous page. */
    cursor: timelineCursorSchema.optional(),
    limit: z.coerce.number().int().min(1).max(50).default(20),
  }),
  response: z.object({
    list: z.array(timelineItemSchema),
    /** Pass as `cursor` for the next page; null on the last page. */
    nextCursor: z.string().nullable(),
  }),
  summary:
    "One client's timeline, newest first: contact records, MOT events (raised, seen, handled), KYC bind and unbind, profile edits, large money movements, stock transfers and, when asked, trades",
  errors: [ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND],
});
