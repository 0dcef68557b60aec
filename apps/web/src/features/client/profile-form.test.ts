import { describe, expect, test } from 'vitest';
import type { CustomerBaseInfo } from '@broker/contract';
import {
  changedFields,
  formValuesOf,
  freshEdit,
  mergedProfile,
  profileMerge,
  tagError,
  updatePayload,
  validateProfile,
  type ProfileFormValues,
} from './profile-form';

const base: ProfileFormValues = { nameEn: 'WONG Wai', phone: '+852 9086 6771', email: 'wai@example.com', tags: ['VIP'], remark: '' };

describe('validateProfile', () => {
  test('valid values have no errors; empty optional fields are fine (they clear)', () => {
    expect(validateProfile(base)).toEqual({});
    expect(validateProfile({ ...base, phone: '', email: '', remark: '' })).toEqual({});
  });

  test('each broken rule names its own localized message', () => {
    expect(validateProfile({ ...base, nameEn: '  ' }).nameEn?.key).toBe('client.edit.errors.required');
    expect(validateProfile({ ...base, nameEn: '王' }).nameEn?.key).toBe('client.edit.errors.nameEnChars');
    expect(validateProfile({ ...base, nameEn: 'A'.repeat(81) }).nameEn).toEqual({ key: 'client.edit.errors.tooLong', max: 80 });
    expect(validateProfile({ ...base, phone: '91234567' }).phone?.key).toBe('client.edit.errors.phone');
    expect(validateProfile({ ...base, email: 'nope' }).email?.key).toBe('client.edit.errors.email');
    expect(validateProfile({ ...base, email: `${'a'.repeat(115)}@x.com` }).email).toEqual({ key: 'client.edit.errors.tooLong', max: 120 });
    expect(validateProfile({ ...base, remark: 'x'.repeat(501) }).remark).toEqual({ key: 'client.edit.errors.tooLong', max: 500 });
  });
});

describe('tags', () => {
  test('no blanks, no repeats, at most 20 characters and 10 tags', () => {
    expect(tagError(['VIP'], 'New')).toBeNull();
    expect(tagError(['VIP'], ' VIP ')?.key).toBe('client.edit.errors.tagRepeat');
    expect(tagError([], 'x'.repeat(21))).toEqual({ key: 'client.edit.errors.tooLong', max: 20 });
    expect(
      tagError(
        Array.from({ length: 10 }, (_, index) => `t${index}`),
        'more',
      )?.key,
    ).toBe('client.edit.errors.tagsMax');
  });
});

describe('what is sent', () => {
  test('only changed fields, trimmed, empty text as null', () => {
    expect(changedFields(base, base)).toEqual({});
    expect(updatePayload(7, 3, base, { ...base, email: '  ', remark: ' call after 6pm ' })).toEqual({
      customerId: 7,
      version: 3,
      email: null,
      remark: 'call after 6pm',
    });
  });
});

describe('an edit that meets a profile saved meanwhile (ADR 0013)', () => {
  const info = {
    customerId: 1,
    nameEn: 'WONG Wai',
    phoneMasked: '+852 9086 ****',
    email: 'wai@example.com',
    tags: ['VIP'],
    remark: 'prefers calls',
    version: 3,
  } as unknown as CustomerBaseInfo;
  const mineOn = (changes: Partial<ProfileFormValues>) => {
    const edit = freshEdit(info);
    return { ...edit, values: { ...edit.values, ...changes } };
  };

  test('the remark both changed is a clash; the email only they changed is taken; my name is kept', () => {
    const edit = mineOn({ remark: 'my note', nameEn: 'WONG Tai Wai' });
    const latest = { ...info, remark: 'their note', email: 'new@example.com', version: 4 };
    expect(profileMerge(edit, latest)).toEqual({ clashes: ['remark'], taken: ['email'], kept: ['nameEn'] });
    const merged = mergedProfile(edit, latest, { remark: 'both' });
    expect(merged.version).toBe(4);
    expect(merged.started).toEqual(formValuesOf(latest));
    expect(merged.values).toEqual({ ...formValuesOf(latest), nameEn: 'WONG Tai Wai', remark: 'their note\nmy note' });
    // Saved now, the payload sends only my fields, against the new version: their email is not undone.
    expect(updatePayload(1, merged.version, merged.started, merged.values)).toEqual({
      customerId: 1,
      version: 4,
      nameEn: 'WONG Tai Wai',
      remark: 'their note\nmy note',
    });
  });

  test('tags both changed: keeping both keeps every tag of each', () => {
    const edit = mineOn({ tags: ['VIP', 'Tech'] });
    const latest = { ...info, tags: ['VIP', 'HNW'], version: 4 };
    expect(profileMerge(edit, latest).clashes).toEqual(['tags']);
    expect(mergedProfile(edit, latest, { tags: 'both' }).values.tags).toEqual(['VIP', 'HNW', 'Tech']);
    expect(mergedProfile(edit, latest, { tags: 'mine' }).values.tags).toEqual(['VIP', 'Tech']);
  });

  test('the phone, held masked: a number I typed clashes with a number they saved; taking theirs keeps it on file', () => {
    const edit = mineOn({ phone: '+852 6123 4567' });
    const latest = { ...info, phoneMasked: '+852 5555 ****', version: 4 };
    expect(profileMerge(edit, latest).clashes).toEqual(['phone']);
    expect(mergedProfile(edit, latest, { phone: 'theirs' }).values.phone).toBe('');
    expect(mergedProfile(edit, latest, { phone: 'mine' }).values.phone).toBe('+852 6123 4567');
    // Their new number with mine untouched is simply theirs; my number with theirs untouched is kept.
    expect(profileMerge(mineOn({ remark: 'x' }), latest).taken).toEqual(['phone']);
    expect(profileMerge(edit, { ...info, version: 4 }).kept).toEqual(['phone']);
  });

  test('both changed a field to the same value: nothing to choose', () => {
    const edit = mineOn({ remark: ' same words ' });
    expect(profileMerge(edit, { ...info, remark: 'same words', version: 4 }).clashes).toEqual([]);
  });
});

describe('the phone on file stays masked (ADR 0039)', () => {
  const info = { nameEn: 'WONG Wai', phoneMasked: '+852 9086 ****', email: null, tags: [], remark: null } as unknown as CustomerBaseInfo;

  test('the form starts with no number; left empty, the save leaves the number as it is', () => {
    const started = formValuesOf(info);
    expect(started.phone).toBe('');
    expect(updatePayload(1, 3, started, { ...started, remark: 'call back' })).toEqual({ customerId: 1, version: 3, remark: 'call back' });
  });

  test('a number typed replaces it', () => {
    const started = formValuesOf(info);
    expect(updatePayload(1, 3, started, { ...started, phone: '+852 6123 4567' })).toEqual({
      customerId: 1,
      version: 3,
      phone: '+852 6123 4567',
    });
  });
});
