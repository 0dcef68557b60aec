import { readDraft, removeDraft, writeDraft } from './draft-store';
import { isObject, isText } from './page-state';

/*
 * Text typed in a short form carried into a fuller one on another page (MOT's handle sheet → the contact log's form) under the
 * second form's draft key: the features meet through this and a route, and the text survives the move like any draft.
 */

const MAX_FIELDS = 10;
const MAX_TEXT = 10_000;
const handoverKey = (formKey: string) => `handover:${formKey}`;

export type TypedText = Record<string, string>;

const isTypedText = (data: unknown): data is TypedText =>
  isObject(data) &&
  !Array.isArray(data) &&
  Object.keys(data).length <= MAX_FIELDS &&
  Object.values(data).every((value) => isText(value, MAX_TEXT));

/** Leaves `typed` (fields with any text) for the form whose draft key is `formKey`; nothing when nothing was typed. */
export function handOverTyped(formKey: string, typed: TypedText) {
  const kept = Object.fromEntries(Object.entries(typed).filter(([, value]) => value.trim() !== ''));
  if (Object.keys(kept).length > 0) writeDraft(handoverKey(formKey), kept);
}

/** What was handed over to the form under `formKey`, if anything (read only: `forgetHandover` once the form kept it). */
export const handedOver = (formKey: string): TypedText | null => readDraft(handoverKey(formKey), isTypedText)?.data ?? null;

export const forgetHandover = (formKey: string) => removeDraft(handoverKey(formKey));
