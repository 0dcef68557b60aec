import { z } from 'zod';
import { ErrorCode } from '../error-codes';
import { daySchema, epochMsSchema, pagedSchema, pagingShape, clientNameShape, maskedPhoneSchema } from '../common';
import { motEndpoint, motEventBriefSchema, motEventIdSchema, motRuleSchema } from './mot';

/** The ranked "today" list (overdue, due today, raised today; ADR 0041), each event's "why this rank", and snoozing. */

/** score = typeWeight × tierFactor × overdueFactor × contactFactor, each factor with the fact it was read from. */
export const motRankSchema = z.object({
  score: z.number(),
  /** The event type's weight (the corp's configuration). */
  typeWeight: z.number(),
  /** The client's tier by total assets (HKD) and its factor. */
  tier: z.number().int(),
  tierFactor: z.number(),
  totalAssetsHkd: z.number(),
  /** Days past the due day (0 when due today or later). */
  overdueDays: z.number().int(),
  overdueFactor: z.number(),
  /** Days since the client's latest contact record; null: never contacted (counted as the cap). */
  daysSinceContact: z.number().int().nullable(),
  contactFactor: z.number(),
  /** Raised today (visible today whatever its due day). */
  raisedToday: z.boolean(),
});
export type MotRank = z.infer<typeof motRankSchema>;

/** A row of the ranked list: one event, its client, its rank. */
export const motRankedRowSchema = z.object({
  ...clientNameShape,
  phone: maskedPhoneSchema,
  /** 1-based position in the whole ranked day. */
  position: z.number().int(),
  event: motEventBriefSchema.extend({ snoozed: z.boolean() }),
  rank: motRankSchema,
});
export type MotRankedRow = z.infer<typeof motRankedRowSchema>;

/** Today's completion: what the caller handled today, of handled + still pending in today's list. */
export const motDayProgressSchema = z.object({
  date: daySchema,
  handled: z.number().int(),
  total: z.number().int(),
});
export type MotDayProgress = z.infer<typeof motDayProgressSchema>;

export const getRankedToday = motEndpoint({
  method: 'GET',
  path: '/api/mot/todoEvent/ranked',
  request: z.strictObject({ rule: motRuleSchema.optional(), ...pagingShape }),
  response: pagedSchema(motRankedRowSchema).extend({
    progress: motDayProgressSchema,
    /** Today's pending events by type (the type filter's counts). */
    byRule: z.array(z.object({ rule: motRuleSchema, count: z.number().int() })),
  }),
  summary: "Today's events (overdue, due today, raised today), highest rule score first, with today's completion",
});

/** Why a snooze: a preset; `other` needs a note. */
export const snoozeReasonSchema = z.enum(['client_unavailable', 'client_asked', 'awaiting_documents', 'awaiting_market', 'other']);
export type SnoozeReason = z.infer<typeof snoozeReasonSchema>;
export const SNOOZE_REASONS = snoozeReasonSchema.options;
/** The furthest a snooze may put an event off, in days after today. */
export const MAX_SNOOZE_DAYS = 90;

export const motSnoozeSchema = z.object({
  snoozeId: z.number().int(),
  /** Who snoozed it (staff name). */
  staffName: z.string(),
  snoozedAt: epochMsSchema,
  fromDate: daySchema,
  toDate: daySchema,
  reason: snoozeReasonSchema,
  note: z.string().nullable(),
});
export type MotSnooze = z.infer<typeof motSnoozeSchema>;

export const getEventRank = motEndpoint({
  method: 'GET',
  path: '/api/mot/todoEvent/rank',
  request: z.strictObject({ eventId: motEventIdSchema }),
  response: z.object({
    /** Null once handled (a handled event is not ranked). */
    rank: motRankSchema.nullable(),
    /** Every snooze of the event, newest first. */
    snoozes: z.array(motSnoozeSchema),
  }),
  summary: 'Why an event ranks where it does (each factor of its score) and its snooze history',
  errors: [ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND],
});

export const snoozeEvent = motEndpoint({
  method: 'POST',
  path: '/api/mot/todoEvent/snooze',
  request: z
    .strictObject({
      eventId: motEventIdSchema,
      /** The day it comes back: after today, at most MAX_SNOOZE_DAYS ahead (checked against the Hong Kong day on the server). */
      until: daySchema,
      reason: snoozeReasonSchema,
      note: z.string().trim().max(200, 'must be at most 200 characters').optional(),
    })
    .refine((input) => input.reason !== 'other' || Boolean(input.note), {
      message: 'must say why when the reason is other',
      path: ['note'],
    }),
  response: z.object({ eventId: z.number().int(), dueDate: daySchema, snooze: motSnoozeSchema }),
  summary:
    'Put an event off to a later day: it leaves today and comes back on that day marked snoozed; an event already handled answers 090409',
  errors: [ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND, ErrorCode.CONFLICT],
});
