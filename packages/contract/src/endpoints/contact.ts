import { z } from 'zod';
import { areaEndpoints } from '../endpoint';
import { ErrorCode } from '../error-codes';
import { daySchema, epochMsSchema, idSchema, withDayRangeCheck } from '../common';
import { customerIdSchema } from './customer';

/**
 * The contact log (ADR 0038, docs/contact-log.md): records of client contact as the SFC expects them, never deleted,
 * edited by their author until they lock, corrected after by a new version. MOT's service records are these rows.
 * Called from the client pages and MOT (shared); another manager's client answers 090403, an unknown one 090404.
 */
const contactEndpoint = areaEndpoints({ agent: 'khzl', shared: true, tag: 'contact' });

/** How the client was reached. (MOT's `serviceChannelSchema` is this one.) */
export const contactChannelSchema = z.enum(['phone', 'wecom', 'meeting', 'email', 'other']);
export type ContactChannel = z.infer<typeof contactChannelSchema>;
export const CONTACT_CHANNELS = contactChannelSchema.options;

/** Why: stored as a code, shown in the reader's language. */
export const contactPurposeSchema = z.enum([
  /** Servicing: a question, an instruction, an account matter. */
  'service',
  /** A portfolio or account review. */
  'review',
  /** A product or trade was recommended: the record must carry the suitability rationale. */
  'recommendation',
  /** Greetings: birthday, anniversary, a festival. */
  'care',
  /** A document or assessment to renew. */
  'document',
  /** Following up an earlier record's next step. */
  'follow_up',
  'complaint',
  'other',
]);
export type ContactPurpose = z.infer<typeof contactPurposeSchema>;
export const CONTACT_PURPOSES = contactPurposeSchema.options;

/** Outcomes a manager picks from a chip (ADR 0048), stored as codes; a record's `outcome` is one of them or free words. */
export const SERVICE_OUTCOME_CODES = ['contacted', 'no_need', 'meeting_booked', 'unreachable'] as const;
export type ServiceOutcomeCode = (typeof SERVICE_OUTCOME_CODES)[number];

/** Each chip's words (zh-CN, zh-HK, en): domain data, as a search for the words shown must find the records stored as codes. */
export const SERVICE_OUTCOME_WORDS: Readonly<Record<ServiceOutcomeCode, readonly [zhCN: string, zhHK: string, en: string]>> = {
  contacted: ['已联系客户', '已聯絡客戶', 'Client contacted'],
  no_need: ['客户暂无需求', '客戶暫無需求', 'No need for now'],
  meeting_booked: ['已约面谈', '已約面談', 'Meeting booked'],
  unreachable: ['未能联系上', '未能聯絡上', 'Could not reach'],
};

/** The outcome codes whose words, in any of the three languages, contain `keyword` (ignoring case). */
export function outcomeCodesMatching(keyword: string): ServiceOutcomeCode[] {
  const wanted = keyword.trim().toLowerCase();
  if (wanted === '') return [];
  return SERVICE_OUTCOME_CODES.filter((code) => SERVICE_OUTCOME_WORDS[code].some((words) => words.toLowerCase().includes(wanted)));
}

export const CONTACT_NOTE_MAX = 4000;
export const CONTACT_OUTCOME_MAX = 200;
export const CONTACT_NEXT_STEP_MAX = 500;
export const CONTACT_SUITABILITY_MAX = 2000;
export const CONTACT_REASON_MAX = 500;
/** At most this many MOT events linked to one record. */
export const CONTACT_EVENTS_MAX = 20;

export const contactRecordIdSchema = idSchema;

/** The MOT events a record is linked to: the event ids and their rules (a string, so an older web survives a newer rule). */
export const contactLinkedEventSchema = z.object({ eventId: z.number().int(), rule: z.string(), dueDate: daySchema });

/** One version of a contact record. */
export const contactRecordSchema = z.object({
  /** This version's id. */
  recordId: z.number().int(),
  /** The first version's id: what stays the same through corrections. */
  threadId: z.number().int(),
  /** 1 for the record as first written; each correction adds one. */
  version: z.number().int().positive(),
  /** No later version exists: this is what the record says now. */
  latest: z.boolean(),
  customerId: z.number().int(),
  customerName: z.string(),
  /** Who wrote this version. */
  staffId: z.number().int(),
  staffName: z.string(),
  channel: contactChannelSchema,
  purpose: contactPurposeSchema,
  note: z.string(),
  outcome: z.string().nullable(),
  nextStep: z.string().nullable(),
  /** A Hong Kong day: the follow-up appears on the MOT list that day. */
  nextStepDate: daySchema.nullable(),
  /** Why the recommendation suited the client (purpose `recommendation`). */
  suitability: z.string().nullable(),
  events: z.array(contactLinkedEventSchema),
  /** The record whose follow-up this one completed. */
  followsRecordId: z.number().int().nullable(),
  /** The follow-up MOT event the next step raised (pending or handled), if any. */
  followUpEventId: z.number().int().nullable(),
  /** When the contact happened. */
  servedAt: epochMsSchema,
  /** When this version was written. */
  createdAt: epochMsSchema,
  /** From then on the record can only be corrected (a new version), not edited. */
  locksAt: epochMsSchema,
  locked: z.boolean(),
  /** Why this version replaced the previous one (null for version 1 and edits before the lock). */
  correctionReason: z.string().nullable(),
  /** How many times its author edited this version in place before the lock; send it back with a revise. */
  edits: z.number().int().min(0),
});
export type ContactRecord = z.infer<typeof contactRecordSchema>;

/** The fields a manager writes: adding, editing before the lock, correcting after it. */
const recordFields = {
  channel: contactChannelSchema,
  purpose: contactPurposeSchema,
  note: z.string().trim().min(1, 'must not be empty').max(CONTACT_NOTE_MAX),
  outcome: z.string().trim().max(CONTACT_OUTCOME_MAX).nullable().optional(),
  nextStep: z.string().trim().max(CONTACT_NEXT_STEP_MAX).nullable().optional(),
  nextStepDate: daySchema.nullable().optional(),
  suitability: z.string().trim().max(CONTACT_SUITABILITY_MAX).nullable().optional(),
  /** When the contact happened; default now. Not in the future, not before the client's account opened. */
  servedAt: epochMsSchema.optional(),
};

type RecordFields = z.output<z.ZodObject<typeof recordFields>>;

/** The rules that tie fields together, in one place for add, edit and correct. */
const checkRecordFields = (fields: RecordFields, ctx: z.RefinementCtx) => {
  if (fields.purpose === 'recommendation' && !fields.suitability?.trim()) {
    ctx.addIssue({ code: 'custom', path: ['suitability'], message: 'is required when a product or trade was recommended' });
  }
  if (fields.nextStepDate && !fields.nextStep?.trim()) {
    ctx.addIssue({ code: 'custom', path: ['nextStep'], message: 'must say what the next step is when it has a date' });
  }
};

/** Adding or changing a record: its fields always checked together by `checkRecordFields`; the record as written in the answer. */
const recordWriteEndpoint = <Shape extends typeof recordFields & z.ZodRawShape>(write: { path: string; fields: Shape; summary: string }) =>
  contactEndpoint({
    method: 'POST',
    path: write.path,
    // Shape holds recordFields, so its output holds RecordFields (which TypeScript cannot see through the generic).
    request: z.strictObject(write.fields).superRefine((fields, ctx) => checkRecordFields(fields as RecordFields, ctx)),
    response: contactRecordSchema,
    summary: write.summary,
    errors: [ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND, ErrorCode.CONFLICT],
  });

export const addContactRecord = recordWriteEndpoint({
  path: '/api/contact/record/add',
  fields: {
    customerId: customerIdSchema,
    ...recordFields,
    /** MOT events of this client the contact served: pending ones become handled. */
    eventIds: z.array(idSchema).max(CONTACT_EVENTS_MAX).optional(),
    /** One per attempt, sent again with each retry: a repeat answers the record the first one wrote. */
    requestId: z.uuid('must be a UUID').optional(),
  },
  summary:
    'Log a contact with a client; linked pending MOT events become handled; a next-step date puts a follow-up on the MOT list that day',
});

export const reviseContactRecord = recordWriteEndpoint({
  path: '/api/contact/record/revise',
  fields: {
    /** The latest version's id: a record revised meanwhile answers 090409. */
    recordId: contactRecordIdSchema,
    ...recordFields,
    /** The `edits` of the version changed: a version edited meanwhile answers 090409 (one of two concurrent changes wins). */
    edits: z.number().int().min(0).max(1_000_000),
    /** Required for a correction (the record is locked, or the caller is not its author); ignored for an edit. */
    correctionReason: z.string().trim().max(CONTACT_REASON_MAX).nullable().optional(),
  },
  summary:
    'Change a record: before it locks, its author edits it in place (audited); after, a correction with a reason adds a new version and keeps the old',
});

export const getContactRecord = contactEndpoint({
  method: 'GET',
  path: '/api/contact/record',
  request: z.strictObject({ recordId: contactRecordIdSchema }),
  response: z.object({
    /** The latest version of the record the id belongs to (any version's id finds it). */
    record: contactRecordSchema,
    /** Every earlier version, newest first. */
    versions: z.array(contactRecordSchema),
  }),
  summary: 'One contact record as it stands now, with every earlier version',
  errors: [ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND],
});

export const listContactRecords = contactEndpoint({
  method: 'GET',
  path: '/api/contact/records',
  request: z.strictObject({
    customerId: customerIdSchema,
    channel: contactChannelSchema.optional(),
    /** Only records served before this one (the `nextCursor` of the previous page). */
    cursor: z.string().max(64).optional(),
    limit: z.coerce.number().int().min(1).max(50).default(20),
  }),
  response: z.object({
    /** Latest versions, newest contact first. */
    list: z.array(contactRecordSchema),
    nextCursor: z.string().nullable(),
  }),
  summary: "A client's contact log, newest contact first (each record as it stands now)",
  errors: [ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND],
});

export const exportContactRecords = contactEndpoint({
  method: 'GET',
  path: '/api/contact/records/export',
  request: withDayRangeCheck(
    z.strictObject({ customerId: customerIdSchema, dateFrom: daySchema.optional(), dateTo: daySchema.optional() }),
  ),
  response: z.object({
    /** e.g. `contact-log-C00012345-2026-11-24.csv` */
    fileName: z.string(),
    /** RFC 4180 CSV, UTF-8 with a byte-order mark (Excel), every version of every record in the range. */
    csv: z.string(),
    records: z.number().int(),
  }),
  summary: "A client's whole contact log, every version, as CSV for a compliance request (the export is audited)",
  errors: [ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND],
});
