import { z } from 'zod';
import { areaEndpoints } from '../endpoint';
import { epochMsSchema, idSchema } from '../common';

/** What the audit log records; the web words each kind. */
export const AUDIT_ACTIONS = [
  'customer.update',
  'kyc.bind',
  'kyc.unbind',
  'mot.handle',
  'mot.setMinCashIO',
  'mot.setFold',
  /** An MOT event put off to a later day (ADR 0041). */
  'mot.snooze',
  /** WeCom cards for new MOT events turned on or off (ADR 0042). */
  'mot.setPush',
  /** The contact log (ADR 0038): a record written, edited before its lock, corrected after it, a client's log exported. */
  'contact.add',
  'contact.edit',
  'contact.correct',
  'contact.export',
  // A client's full phone number shown, or dialled (revealPhone, ADR 0039).
  'customer.revealPhone',
  'customer.callPhone',
] as const;
/** The kinds of thing an entry is about, for the filter. */
export const AUDIT_ENTITIES = ['customer', 'kyc_binding', 'mot_event', 'staff', 'contact_record'] as const;
export const auditEntitySchema = z.enum(AUDIT_ENTITIES);

export const auditChangeSchema = z.object({
  field: z.string(),
  /** As stored, except phone numbers and ID documents, which are masked as everywhere else (`+852 9123 ****`). */
  before: z.unknown(),
  after: z.unknown(),
});
export type AuditChange = z.infer<typeof auditChangeSchema>;

export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: epochMsSchema,
  /** One of AUDIT_ACTIONS (a string, so an older web app survives a newer action). */
  action: z.string(),
  entity: z.string(),
  entityId: z.string(),
  /** The customer the entry concerns, when there is one (profile edit, binding, event). */
  customer: z.object({ customerId: z.number().int(), nameCn: z.string(), nameEn: z.string(), customerNo: z.string() }).nullable(),
  /** For event handling: the MOT rule of the event. */
  eventRule: z.string().nullable(),
  /** The fields that changed, before → after. */
  changes: z.array(auditChangeSchema),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const getMyAuditTrail = areaEndpoints({ agent: 'khzl', shared: true, tag: 'audit' })({
  method: 'GET',
  path: '/api/audit/mine',
  request: z.strictObject({
    /** Only entries older than this one (the last `id` of the previous page). */
    cursor: idSchema.optional(),
    entity: auditEntitySchema.optional(),
    limit: z.coerce.number().int().min(1).max(50).default(20),
  }),
  response: z.object({
    list: z.array(auditEntrySchema),
    /** Pass as `cursor` for the next page; null on the last page. */
    nextCursor: z.number().int().nullable(),
  }),
  summary: 'Your own audit trail, newest first: profile edits, KYC bindings, MOT events handled, MOT settings',
});
