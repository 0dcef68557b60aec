import { readDraft, removeDraft, writeDraft } from './draft-store';

/*
 * Text typed in a short form and carried into a fuller one on another page (MOT's handle sheet → the contact
 * log's form): the first page leaves it here under the second form's draft key, then navigates by URL; the
 * second form takes it into its own draft. The two features meet through this and a route, not through code,
 * and what was typed survives the move like any draft (owner, expiry, storage) — nothing is lost on the way.
 */

const MAX_FIELDS = 10;
const MAX_TEXT = 10_000;
const handoverKey = (formKey: string) => `handover:${formKey}`;

export type TypedText = Record<string, string>;

const isTypedText = (data: unknown): data is TypedText =>
  typeof data === 'object' &&
  data !== null &&
  !Array.isArray(data) &&
  Object.keys(data).length <= MAX_FIELDS &&
  Object.values(data).every((value) => typeof value === 'string' && value.length <= MAX_TEXT);

/** Leaves `typed` (fields with any text) for the form whose draft key is `formKey`; nothing when nothing was typed. */
export function handOverTyped(formKey: string, typed: TypedText) {
  const kept = Object.fromEntries(Object.entries(typed).filter(([, value]) => value.trim() !== ''));
  if (Object.keys(kept).length > 0) writeDraft(handoverKey(formKey), kept);
}

/** What was handed over to the form under `formKey`, if anything (read only: `forgetHandover` once the form kept it). */
export const handedOver = (formKey: string): TypedText | null => readDraft(handoverKey(formKey), isTypedText)?.data ?? null;

export const forgetHandover = (formKey: string) => removeDraft(handoverKey(formKey));
