import {
  type addContactRecord,
  CONTACT_CHANNELS,
  CONTACT_EVENTS_MAX,
  CONTACT_NEXT_STEP_MAX,
  CONTACT_NOTE_MAX,
  CONTACT_OUTCOME_MAX,
  CONTACT_PURPOSES,
  CONTACT_REASON_MAX,
  CONTACT_SUITABILITY_MAX,
  reviseContactRecord,
  type ContactChannel,
  type ContactPurpose,
  type ContactRecord,
  type RequestOf,
} from '@broker/contract';
import { hongKongDateTime, hongKongDay, hongKongInstant, isCalendarDay } from '@broker/domain';
import { bothTexts, compareEdits, mergeEdits, type Comparable, type MergeChoice } from '../../shared/drafts/edit-merge';
import { isObject, isText, oneOf } from '../../shared/drafts/page-state';
import type { KeysUnder } from '../../shared/i18n/translator';

/** The log form as typed: text as it is in the inputs (empty = none), the time as Hong Kong day and time. */
export interface ContactFormValues {
  channel: ContactChannel;
  purpose: ContactPurpose;
  note: string;
  outcome: string;
  nextStep: string;
  /** `YYYY-MM-DD` or ''. */
  nextStepDate: string;
  suitability: string;
  /** When it happened, Hong Kong time: `YYYY-MM-DD` and `HH:mm`. */
  servedDay: string;
  servedTime: string;
}

export type ContactField = keyof ContactFormValues | 'eventIds' | 'correctionReason';

/** The limits the contract sets, by field, for the counters and the messages. */
export const FIELD_MAX = {
  note: CONTACT_NOTE_MAX,
  outcome: CONTACT_OUTCOME_MAX,
  nextStep: CONTACT_NEXT_STEP_MAX,
  suitability: CONTACT_SUITABILITY_MAX,
  correctionReason: CONTACT_REASON_MAX,
} as const;

/** A failure under a field: its message (a key under `contact.error.`) and what it needs. */
export interface FieldError {
  key: KeysUnder<'contact.error'>;
  max?: number;
}
export type FieldErrors = Partial<Record<ContactField, FieldError>>;

/** The fields in the order the form shows them: the first with an error is brought into view. */
export const FIELD_ORDER: readonly ContactField[] = [
  'channel',
  'purpose',
  'servedDay',
  'servedTime',
  'note',
  'outcome',
  'suitability',
  'nextStep',
  'nextStepDate',
  'eventIds',
  'correctionReason',
];

const splitInstant = (at: number) => {
  const [servedDay, servedTime] = hongKongDateTime(at).split(' ') as [string, string];
  return { servedDay, servedTime };
};

/** A new log: the channel and time the link carried (a call just made), else the phone and now. */
export function newFormValues(
  prefill: { channel?: ContactChannel | null; at?: number | null; purpose?: ContactPurpose },
  now = Date.now(),
) {
  return {
    channel: prefill.channel ?? 'phone',
    purpose: prefill.purpose ?? 'service',
    note: '',
    outcome: '',
    nextStep: '',
    nextStepDate: '',
    suitability: '',
    ...splitInstant(prefill.at ?? now),
  } satisfies ContactFormValues;
}

/** The form for changing a record: what it says now. */
export const recordFormValues = (record: ContactRecord): ContactFormValues => ({
  channel: record.channel,
  purpose: record.purpose,
  note: record.note,
  outcome: record.outcome ?? '',
  nextStep: record.nextStep ?? '',
  nextStepDate: record.nextStepDate ?? '',
  suitability: record.suitability ?? '',
  ...splitInstant(record.servedAt),
});

/** The purpose a contact most likely had, from the MOT event it serves or the record it follows up. */
export function suggestedPurpose(rule: string | null | undefined, followsRecord: boolean): ContactPurpose {
  if (followsRecord || rule === 'follow_up') return 'follow_up';
  if (rule === 'birthday' || rule === 'anniversary') return 'care';
  if (rule === 'id_expiry' || rule === 'risk_expiry') return 'document';
  if (rule === 'position_loss' || rule === 'large_deposit' || rule === 'transfer_in') return 'review';
  if (rule === 'negative_equity' || rule === 'concentration' || rule === 'vulnerable_client') return 'review';
  return 'service';
}

/** Whether the suitability field is asked for: a recommendation, or something was typed there already (never hidden away). */
export const showsSuitability = (values: Pick<ContactFormValues, 'purpose' | 'suitability'>) =>
  values.purpose === 'recommendation' || values.suitability.trim() !== '';

const orNull = (text: string) => text.trim() || null;

/** The contact's instant, or null when the day or time is not a real one. */
export const servedAtOf = (values: Pick<ContactFormValues, 'servedDay' | 'servedTime'>) =>
  hongKongInstant(values.servedDay, values.servedTime);

/** The record's fields as the contract takes them (add, edit and correct share them). */
export function recordFields(values: ContactFormValues) {
  return {
    channel: values.channel,
    purpose: values.purpose,
    note: values.note.trim(),
    outcome: orNull(values.outcome),
    nextStep: orNull(values.nextStep),
    nextStepDate: values.nextStepDate.trim() || null,
    suitability: orNull(values.suitability),
    servedAt: servedAtOf(values) ?? undefined,
  };
}

export type AddPayload = RequestOf<typeof addContactRecord>;
export type RevisePayload = RequestOf<typeof reviseContactRecord>;

export function addPayload(customerId: number, values: ContactFormValues, eventIds: readonly number[], requestId: string): AddPayload {
  return { customerId, ...recordFields(values), eventIds: [...eventIds], requestId };
}

/** A change of version `recordId` as it stood after `edits` in-place edits (what the manager saw: a change meanwhile is refused). */
export function revisePayload(recordId: number, edits: number, values: ContactFormValues, correctionReason: string | null): RevisePayload {
  return { recordId, edits, ...recordFields(values), ...(correctionReason === null ? {} : { correctionReason: correctionReason.trim() }) };
}

/** Turns the contract's refusal of a field into the message the form shows (in the reader's language). */
function fromContract(issue: { code: string; path: readonly PropertyKey[] }): [ContactField, FieldError] | null {
  const field = issue.path[0];
  if (typeof field !== 'string') return null;
  if (field === 'suitability' && issue.code === 'custom') return ['suitability', { key: 'suitabilityRequired' }];
  if (field === 'nextStep' && issue.code === 'custom') return ['nextStep', { key: 'nextStepRequired' }];
  if (field === 'eventIds') return ['eventIds', { key: 'tooManyEvents', max: CONTACT_EVENTS_MAX }];
  if (field === 'nextStepDate') return ['nextStepDate', { key: 'day' }];
  if (field === 'servedAt') return ['servedDay', { key: 'day' }];
  if (field in FIELD_MAX && issue.code === 'too_big')
    return [field as ContactField, { key: 'tooLong', max: FIELD_MAX[field as keyof typeof FIELD_MAX] }];
  if (field === 'note' || field === 'correctionReason') return [field, { key: 'required' }];
  return null;
}

export interface ValidationContext {
  /** The client's account opened that day: no contact before it. */
  openDate?: string | null;
  /** A correction (the record is locked): the reason is required. */
  correcting?: boolean;
  correctionReason?: string;
  eventIds?: readonly number[];
  now?: number;
}

/**
 * The server's rules (the contract's schemas), each failure an i18n key shown under its field before anything is sent; plus
 * the contract's rules in words: not in the future, not before the account opened, the next step not before the contact.
 */
export function validateContactForm(values: ContactFormValues, context: ValidationContext = {}): FieldErrors {
  const errors: FieldErrors = {};
  const now = context.now ?? Date.now();
  const set = (field: ContactField, error: FieldError) => {
    errors[field] ??= error;
  };

  if (!isCalendarDay(values.servedDay)) set('servedDay', { key: 'day' });
  else if (servedAtOf(values) === null) set('servedTime', { key: 'time' });
  const servedAt = servedAtOf(values);
  if (servedAt !== null) {
    // The minute typed may be the current one: compare whole minutes.
    if (servedAt > now) set('servedTime', { key: 'future' });
    if (context.openDate && values.servedDay < context.openDate) set('servedDay', { key: 'beforeOpen' });
  }
  if (values.nextStepDate && !isCalendarDay(values.nextStepDate)) set('nextStepDate', { key: 'day' });
  else if (values.nextStepDate && values.nextStepDate < (servedAt !== null ? hongKongDay(servedAt) : hongKongDay(now)))
    set('nextStepDate', { key: 'nextStepBeforeContact' });

  const fields = recordFields(values);
  const payload = { recordId: 1, edits: 0, ...fields, servedAt: fields.servedAt ?? now };
  const result = reviseContactRecord.request.safeParse(payload);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const mapped = fromContract(issue);
      if (mapped) set(...mapped);
    }
  }
  if ((context.eventIds?.length ?? 0) > CONTACT_EVENTS_MAX) set('eventIds', { key: 'tooManyEvents', max: CONTACT_EVENTS_MAX });
  if (context.correcting) {
    const reason = (context.correctionReason ?? '').trim();
    if (!reason) set('correctionReason', { key: 'reasonRequired' });
    else if (reason.length > CONTACT_REASON_MAX) set('correctionReason', { key: 'tooLong', max: CONTACT_REASON_MAX });
  }
  return errors;
}

/** Each field as a merge compares it: as the contract would send it (trimmed, empty as none); the time as typed. */
function comparable(values: ContactFormValues): Comparable<keyof ContactFormValues> {
  const sent = recordFields(values);
  const fields = Object.keys(values) as (keyof ContactFormValues)[];
  return Object.fromEntries(
    fields.map((field) => [field, field === 'servedDay' || field === 'servedTime' ? values[field] : JSON.stringify(sent[field])]),
  ) as Comparable<keyof ContactFormValues>;
}

/** How a change stands against the version saved meanwhile (ADR 0013): the fields both changed, only they, only the user. */
export const contactMerge = (started: ContactFormValues, mine: ContactFormValues, latest: ContactFormValues) =>
  compareEdits(comparable(started), comparable(mine), comparable(latest));

/** The free-text fields, which can keep both values. */
export const keepsBoth = (field: keyof ContactFormValues) =>
  field === 'note' || field === 'outcome' || field === 'nextStep' || field === 'suitability';

/** The change moved onto the latest version: their changes in, the user's kept, each clash as chosen. */
export const mergedContact = (
  started: ContactFormValues,
  mine: ContactFormValues,
  latest: ContactFormValues,
  choices: Partial<Record<keyof ContactFormValues, MergeChoice>>,
): ContactFormValues =>
  mergeEdits(contactMerge(started, mine, latest), mine, latest, choices, (_, theirs, typed) => bothTexts(theirs, typed));

/** The fields that differ from the record (a save that changes nothing is not sent). */
export function changedFields(record: ContactFormValues, values: ContactFormValues): (keyof ContactFormValues)[] {
  const [from, to] = [comparable(record), comparable(values)];
  return (Object.keys(values) as (keyof ContactFormValues)[]).filter((field) => from[field] !== to[field]);
}

/* What comes back from storage is untrusted (ADR 0013): each draft's shape is checked before the form uses it. */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export function isContactFormValues(value: unknown): value is ContactFormValues {
  const form = value as Partial<ContactFormValues> | null;
  return (
    isObject(form) &&
    oneOf(CONTACT_CHANNELS)(form.channel) &&
    oneOf(CONTACT_PURPOSES)(form.purpose) &&
    // A little over the limits: what was typed over a limit is kept, and the form says so.
    (['note', 'outcome', 'nextStep', 'suitability'] as const).every((field) => isText(form[field], FIELD_MAX[field] * 2)) &&
    isText(form.nextStepDate, 10) &&
    isText(form.servedDay, 10) &&
    isText(form.servedTime, 5)
  );
}

const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;

/** An unsent log: what was typed, the events ticked, and the id of the attempt (so a retry after a crash writes it once). */
export interface NewContactDraft {
  values: ContactFormValues;
  eventIds: number[];
  requestId: string;
  followsRecordId: number | null;
}

export const isNewContactDraft = (data: unknown): data is NewContactDraft => {
  const draft = data as Partial<NewContactDraft> | null;
  return (
    isObject(draft) &&
    isContactFormValues(draft.values) &&
    Array.isArray(draft.eventIds) &&
    draft.eventIds.length <= CONTACT_EVENTS_MAX &&
    draft.eventIds.every(isId) &&
    typeof draft.requestId === 'string' &&
    UUID.test(draft.requestId) &&
    (draft.followsRecordId === null || isId(draft.followsRecordId))
  );
};

/** Nothing typed yet: no draft is kept (choosing a chip alone is not worth restoring). */
export const isNewContactUntouched = (draft: NewContactDraft) =>
  !draft.values.note.trim() && !draft.values.outcome.trim() && !draft.values.nextStep.trim() && !draft.values.suitability.trim();

export const newContactDraftKey = (customerId: number) => `contactNew:${customerId}`;

/** An unsaved change of a record: its version, what it said when editing began (to merge after a conflict), typed values, reason. */
export interface ReviseDraft {
  basedOn: number;
  /** The version's `edits` when editing began: sent back, so an edit made meanwhile is caught. */
  edits: number;
  started: ContactFormValues;
  values: ContactFormValues;
  reason: string;
}

export const isReviseDraft = (data: unknown): data is ReviseDraft => {
  const draft = data as Partial<ReviseDraft> | null;
  return (
    isObject(draft) &&
    isId(draft.basedOn) &&
    Number.isSafeInteger(draft.edits) &&
    (draft.edits as number) >= 0 &&
    isContactFormValues(draft.started) &&
    isContactFormValues(draft.values) &&
    isText(draft.reason, CONTACT_REASON_MAX * 2)
  );
};

export const reviseDraftKey = (threadId: number) => `contactRevise:${threadId}`;

/** `text` added to what is in a field already, on a line of its own, unless it is there already (a handover never doubles). */
export function appendText(kept: string, text: string | undefined): string {
  const typed = (text ?? '').trim();
  if (!typed || kept.includes(typed)) return kept;
  return kept.trim() ? `${kept.trimEnd()}\n${typed}` : typed;
}

/** A fresh id for one attempt at logging a contact (RFC 4122 version 4). */
export function newRequestId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // Outside a secure context (plain http on a LAN) randomUUID is missing; getRandomValues is not.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Before the lock its author edits the record in place; after it, a correction with a reason adds a version. */
export const isLocked = (record: Pick<ContactRecord, 'locked' | 'locksAt'>, now = Date.now()) => record.locked || now >= record.locksAt;
