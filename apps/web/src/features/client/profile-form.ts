import type { TranslationKey } from '../../shared/i18n/translator';
import { PROFILE_TAG_LIMIT, profileEditSchema, type CustomerBaseInfo, type RequestOf, type endpoints } from '@broker/contract';
import {
  bothLists,
  bothTexts,
  compareEdits,
  mergeEdits,
  type Comparable,
  type EditMerge,
  type MergeChoice,
} from '../../shared/drafts/edit-merge';

/** The edit form's values as typed (empty clears); the phone is masked on file (ADR 0039), so empty keeps it and a number replaces it. */
export interface ProfileFormValues {
  nameEn: string;
  phone: string;
  email: string;
  tags: string[];
  remark: string;
}

export type ProfileField = keyof ProfileFormValues;
/** A failed rule, named by its string. */
export interface FieldError {
  key: TranslationKey;
  max?: number;
}
export type FieldErrors = Partial<Record<ProfileField, FieldError>>;

export const formValuesOf = (info: CustomerBaseInfo): ProfileFormValues => ({
  nameEn: info.nameEn,
  phone: '',
  email: info.email ?? '',
  tags: [...info.tags],
  remark: info.remark ?? '',
});

/** A length the contract refused, by the contract's own maximum; null for any other failure. */
const maxExceeded = (result: { error?: { issues: readonly { code: string; maximum?: unknown }[] } }) => {
  const issue = result.error?.issues.find((candidate) => candidate.code === 'too_big');
  return issue ? Number(issue.maximum) : null;
};

/** The remark's limit, also counted under its field. */
export const REMARK_MAX = profileEditSchema.remark.unwrap().maxLength ?? Infinity;

/** The server's rules (the contract's schemas), each failure an i18n key, so the user reads it before anything is sent. */
export function validateProfile(values: ProfileFormValues): FieldErrors {
  const errors: FieldErrors = {};
  const nameEn = values.nameEn.trim();
  if (!nameEn) errors.nameEn = { key: 'client.edit.errors.required' };
  else {
    const result = profileEditSchema.nameEn.safeParse(nameEn);
    const max = maxExceeded(result);
    if (!result.success) errors.nameEn = max ? { key: 'client.edit.errors.tooLong', max } : { key: 'client.edit.errors.nameEnChars' };
  }
  if (values.phone.trim()) {
    const result = profileEditSchema.phone.safeParse(values.phone.trim());
    if (!result.success) errors.phone = { key: 'client.edit.errors.phone' };
  }
  if (values.email.trim()) {
    const result = profileEditSchema.email.safeParse(values.email.trim());
    const max = maxExceeded(result);
    if (!result.success) errors.email = max ? { key: 'client.edit.errors.tooLong', max } : { key: 'client.edit.errors.email' };
  }
  if (values.tags.length > PROFILE_TAG_LIMIT) errors.tags = { key: 'client.edit.errors.tagsMax', max: PROFILE_TAG_LIMIT };
  if (values.remark.trim().length > REMARK_MAX) errors.remark = { key: 'client.edit.errors.tooLong', max: REMARK_MAX };
  return errors;
}

/** Why a new tag cannot be added, or null when it can. */
export function tagError(tags: readonly string[], tag: string): FieldError | null {
  const trimmed = tag.trim();
  if (!trimmed) return null;
  const max = maxExceeded(profileEditSchema.tags.element.safeParse(trimmed));
  if (max) return { key: 'client.edit.errors.tooLong', max };
  if (tags.includes(trimmed)) return { key: 'client.edit.errors.tagRepeat' };
  if (tags.length >= PROFILE_TAG_LIMIT) return { key: 'client.edit.errors.tagsMax', max: PROFILE_TAG_LIMIT };
  return null;
}

type UpdatePayload = RequestOf<typeof endpoints.updateProfile>;

const normalized = (values: ProfileFormValues) => ({
  nameEn: values.nameEn.trim(),
  phone: values.phone.trim() || null,
  email: values.email.trim() || null,
  tags: values.tags,
  remark: values.remark.trim() || null,
});

/** The fields that differ from `base` (only those are sent, so a save never rewrites what was not touched). */
export function changedFields(base: ProfileFormValues, values: ProfileFormValues): Partial<ReturnType<typeof normalized>> {
  const from = normalized(base);
  return Object.fromEntries(
    Object.entries(normalized(values)).filter(([field, value]) => JSON.stringify(from[field as ProfileField]) !== JSON.stringify(value)),
  );
}

export function updatePayload(customerId: number, version: number, base: ProfileFormValues, values: ProfileFormValues): UpdatePayload {
  return { customerId, version, ...changedFields(base, values) };
}

/** An edit as it stands: the profile version it is against, where the form began, the (masked) number on file, what is typed. */
export interface ProfileEdit {
  version: number;
  started: ProfileFormValues;
  phoneOnFile: string | null;
  values: ProfileFormValues;
}

export const freshEdit = (info: CustomerBaseInfo): ProfileEdit => ({
  version: info.version,
  started: formValuesOf(info),
  phoneOnFile: info.phoneMasked,
  values: formValuesOf(info),
});

/** Each field as a merge compares it; the phone by the number on file unless a new one is typed. */
function comparable(values: ProfileFormValues, phoneOnFile: string | null): Comparable<ProfileField> {
  const sent = normalized(values);
  return {
    nameEn: sent.nameEn,
    phone: sent.phone ?? `on file ${phoneOnFile ?? ''}`,
    email: JSON.stringify(sent.email),
    tags: JSON.stringify(sent.tags),
    remark: JSON.stringify(sent.remark),
  };
}

/** How the edit stands against the profile saved meanwhile (ADR 0013): the fields both changed, only they, only the user. */
export const profileMerge = (edit: ProfileEdit, latest: CustomerBaseInfo): EditMerge<ProfileField> =>
  compareEdits(
    comparable(edit.started, edit.phoneOnFile),
    comparable(edit.values, edit.phoneOnFile),
    comparable(formValuesOf(latest), latest.phoneMasked),
  );

/** Remark and tags can keep both values; the other fields are one value each. */
export const keepsBoth = (field: ProfileField) => field === 'remark' || field === 'tags';

/** The edit moved onto the latest profile: their changes in, the user's kept, each clash as chosen. */
export function mergedProfile(
  edit: ProfileEdit,
  latest: CustomerBaseInfo,
  choices: Partial<Record<ProfileField, MergeChoice>>,
): ProfileEdit {
  const start = freshEdit(latest);
  const values = mergeEdits(profileMerge(edit, latest), edit.values, start.started, choices, (_, theirs, mine) =>
    Array.isArray(theirs) && Array.isArray(mine) ? bothLists(theirs, mine) : bothTexts(String(theirs), String(mine)),
  );
  return { ...start, values };
}
