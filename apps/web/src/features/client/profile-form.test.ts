import { describe, expect, test } from 'vitest';
import type { CustomerBaseInfo } from '@broker/contract';
import {
  changedFields,
  formValuesOf,
  reapplyChanges,
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
    expect(validateProfile({ ...base, remark: 'x'.repeat(501) }).remark).toEqual({ key: 'client.edit.errors.tooLong', max: 500 });
  });
});

describe('tags', () => {
  test('no blanks, no repeats, at most 20 characters and 10 tags', () => {
    expect(tagError(['VIP'], 'New')).toBeNull();
    expect(tagError(['VIP'], ' VIP ')?.key).toBe('client.edit.errors.tagRepeat');
    expect(tagError([], 'x'.repeat(21))?.key).toBe('client.edit.errors.tooLong');
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

  test('after a conflict the latest profile is the start and only my own changes are laid on top', () => {
    const mine = { ...base, remark: 'my note' };
    const latest = { ...base, email: 'colleague@example.com', tags: ['VIP', 'HNW'] };
    expect(reapplyChanges(base, mine, latest)).toEqual({ ...latest, remark: 'my note' });
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
