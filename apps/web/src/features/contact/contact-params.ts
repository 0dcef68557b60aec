import {
  contactChannelSchema,
  contactRecordIdSchema,
  customerIdSchema,
  motEventIdSchema,
  type ContactChannel,
  type idSchema,
} from '@broker/contract';

// The one place the contact pages read their query: links come from other features and from outside (a WeCom card, a hand-edited
// link), so each value is checked against the contract's rule, and one that fails is left out and named, never guessed at.

/** The log form's query: `/client/contact/new?customerId=&channel=&eventId=&at=&followsRecordId=`. */
export interface ContactFormParams {
  customerId: number;
  channel: ContactChannel | null;
  /** A MOT event of the client the contact served (pre-ticked among the pending events). */
  eventId: number | null;
  /** When the contact happened (epoch ms), e.g. when the call just made started. */
  at: number | null;
  /** The record whose next step this contact follows up. */
  followsRecordId: number | null;
}

export type ContactFormParamName = Exclude<keyof ContactFormParams, 'customerId'>;

export type ParsedFormParams =
  { ok: true; params: ContactFormParams; ignored: ContactFormParamName[] } | { ok: false; ignored: ContactFormParamName[] };

/** `at` may run this far ahead of this device's clock (another device made the call); later is refused. */
export const AT_CLOCK_SKEW_MS = 5 * 60_000;
/** `at` older than this is not a contact "just made": refused (the form defaults to now). */
export const AT_MAX_AGE_MS = 90 * 24 * 60 * 60_000;

/** One value of a query: absent, or present exactly once (a repeated key is ambiguous, so refused). */
function single(search: URLSearchParams, name: string): { present: boolean; value: string | null } {
  const values = search.getAll(name);
  if (values.length === 0) return { present: false, value: null };
  return { present: true, value: values.length === 1 ? values[0]! : null };
}

/** Digits only: `Number(' 12 ')`, `'1e3'`, `'0x10'` would otherwise pass as numbers. */
const DIGITS = /^\d{1,16}$/;

/** A positive id from the query, by the contract's rule for it; null when absent or not acceptable. */
function idParam(search: URLSearchParams, name: string, schema: typeof idSchema) {
  const { present, value } = single(search, name);
  const parsed = value !== null && DIGITS.test(value) ? schema.safeParse(value) : null;
  return { present, id: parsed?.success ? parsed.data : null };
}

/** The client a contact page is about (`?customerId=`), or null. */
export function parseCustomerId(search: URLSearchParams): number | null {
  return idParam(search, 'customerId', customerIdSchema).id;
}

/** The record the record page shows (`?recordId=`, any of its versions), or null. */
export function parseRecordId(search: URLSearchParams): number | null {
  return idParam(search, 'recordId', contactRecordIdSchema).id;
}

/** The log form's query, checked value by value; values that fail are left out and listed in `ignored`. */
export function parseContactFormParams(search: URLSearchParams, now = Date.now()): ParsedFormParams {
  const ignored: ContactFormParamName[] = [];

  const channelParam = single(search, 'channel');
  const channel = channelParam.present ? contactChannelSchema.safeParse(channelParam.value ?? undefined) : null;
  if (channel && !channel.success) ignored.push('channel');

  const event = idParam(search, 'eventId', motEventIdSchema);
  if (event.present && event.id === null) ignored.push('eventId');

  const follows = idParam(search, 'followsRecordId', contactRecordIdSchema);
  if (follows.present && follows.id === null) ignored.push('followsRecordId');

  const atParam = single(search, 'at');
  let at: number | null = null;
  if (atParam.present) {
    const value = atParam.value !== null && DIGITS.test(atParam.value) ? Number(atParam.value) : NaN;
    if (Number.isSafeInteger(value) && value <= now + AT_CLOCK_SKEW_MS && value >= now - AT_MAX_AGE_MS) at = Math.min(value, now);
    else ignored.push('at');
  }

  const customerId = parseCustomerId(search);
  if (customerId === null) return { ok: false, ignored };
  return {
    ok: true,
    params: { customerId, channel: channel?.success ? channel.data : null, eventId: event.id, at, followsRecordId: follows.id },
    ignored,
  };
}
