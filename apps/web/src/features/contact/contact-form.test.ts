import { describe, expect, test } from 'vitest';
import { addContactRecord, CONTACT_NOTE_MAX, type ContactRecord } from '@broker/contract';
import {
  addPayload,
  appendText,
  changedFields,
  isNewContactDraft,
  isReviseDraft,
  newFormValues,
  newRequestId,
  contactMerge,
  mergedContact,
  recordFormValues,
  revisePayload,
  suggestedPurpose,
  validateContactForm,
  type ContactFormValues,
} from './contact-form';

// 2026-11-20 10:00 in Hong Kong.
const NOW = Date.UTC(2026, 10, 20, 2, 0);
const base = (overrides: Partial<ContactFormValues> = {}): ContactFormValues => ({
  ...newFormValues({}, NOW),
  note: '与客户电话沟通，解释了港股通额度',
  ...overrides,
});

const record: ContactRecord = {
  recordId: 7,
  threadId: 7,
  version: 1,
  latest: true,
  customerId: 3,
  customerName: '陈大文',
  staffId: 1,
  staffName: '陈伟文',
  channel: 'meeting',
  purpose: 'review',
  note: '检视组合',
  outcome: '维持现有配置',
  nextStep: null,
  nextStepDate: null,
  suitability: null,
  events: [],
  followsRecordId: null,
  followUpEventId: null,
  servedAt: Date.UTC(2026, 10, 19, 7, 30),
  createdAt: Date.UTC(2026, 10, 19, 8, 0),
  locksAt: Date.UTC(2026, 10, 20, 8, 0),
  locked: false,
  correctionReason: null,
  edits: 0,
};

describe('the log form', () => {
  test('a new form starts at the moment the link names (Hong Kong time), else now, by phone', () => {
    expect(newFormValues({}, NOW)).toMatchObject({ channel: 'phone', purpose: 'service', servedDay: '2026-11-20', servedTime: '10:00' });
    expect(newFormValues({ channel: 'wecom', at: Date.UTC(2026, 10, 19, 16, 5) }, NOW)).toMatchObject({
      channel: 'wecom',
      servedDay: '2026-11-20',
      servedTime: '00:05',
    });
  });

  test('what the form sends is what the contract accepts: trimmed, empty text as null, the time as epoch ms', () => {
    const requestId = newRequestId();
    const payload = addPayload(3, base({ outcome: '  ', nextStep: ' 下周回电 ', nextStepDate: '2026-11-27' }), [11, 12], requestId);
    expect(payload).toEqual({
      customerId: 3,
      channel: 'phone',
      purpose: 'service',
      note: '与客户电话沟通，解释了港股通额度',
      outcome: null,
      nextStep: '下周回电',
      nextStepDate: '2026-11-27',
      suitability: null,
      servedAt: NOW,
      eventIds: [11, 12],
      requestId,
    });
    expect(addContactRecord.request.safeParse(payload).success).toBe(true);
    expect(revisePayload(7, 2, base(), null)).not.toHaveProperty('correctionReason');
    expect(revisePayload(7, 2, base(), null)).toMatchObject({ recordId: 7, edits: 2 });
    expect(revisePayload(7, 0, base(), ' 记错时间 ')).toMatchObject({ recordId: 7, correctionReason: '记错时间' });
  });

  test('the contract rules show under their fields, before anything is sent', () => {
    expect(validateContactForm(base(), { now: NOW })).toEqual({});
    expect(validateContactForm(base({ note: '   ' }), { now: NOW })).toEqual({ note: { key: 'required' } });
    expect(validateContactForm(base({ note: 'x'.repeat(CONTACT_NOTE_MAX + 1) }), { now: NOW })).toEqual({
      note: { key: 'tooLong', max: CONTACT_NOTE_MAX },
    });
    expect(validateContactForm(base({ purpose: 'recommendation' }), { now: NOW })).toEqual({
      suitability: { key: 'suitabilityRequired' },
    });
    expect(validateContactForm(base({ purpose: 'recommendation', suitability: 'R4 客户，增长目标' }), { now: NOW })).toEqual({});
    expect(validateContactForm(base({ nextStepDate: '2026-11-27' }), { now: NOW })).toEqual({ nextStep: { key: 'nextStepRequired' } });
  });

  test('when it happened: a real day and time, not later than now, not before the account opened', () => {
    expect(validateContactForm(base({ servedDay: '2026-02-30' }), { now: NOW })).toEqual({ servedDay: { key: 'day' } });
    expect(validateContactForm(base({ servedTime: '' }), { now: NOW })).toEqual({ servedTime: { key: 'time' } });
    expect(validateContactForm(base({ servedTime: '10:01' }), { now: NOW })).toEqual({ servedTime: { key: 'future' } });
    expect(validateContactForm(base({ servedDay: '2020-01-01' }), { now: NOW, openDate: '2021-03-04' })).toEqual({
      servedDay: { key: 'beforeOpen' },
    });
    expect(validateContactForm(base({ nextStep: '回电', nextStepDate: '2026-11-19' }), { now: NOW })).toEqual({
      nextStepDate: { key: 'nextStepBeforeContact' },
    });
  });

  test('a correction needs its reason; an edit before the lock does not', () => {
    expect(validateContactForm(base(), { now: NOW, correcting: true, correctionReason: ' ' })).toEqual({
      correctionReason: { key: 'reasonRequired' },
    });
    expect(validateContactForm(base(), { now: NOW, correcting: true, correctionReason: '时间记错' })).toEqual({});
    expect(validateContactForm(base(), { now: NOW, correcting: false })).toEqual({});
  });

  test('the purpose a link suggests: from the event it serves, or the record it follows up', () => {
    expect(suggestedPurpose('birthday', false)).toBe('care');
    expect(suggestedPurpose('id_expiry', false)).toBe('document');
    expect(suggestedPurpose('follow_up', false)).toBe('follow_up');
    expect(suggestedPurpose(undefined, true)).toBe('follow_up');
    expect(suggestedPurpose(undefined, false)).toBe('service');
  });
});

describe('changing a record', () => {
  test('a record reads back into the form unchanged; only what the user changed counts', () => {
    const values = recordFormValues(record);
    expect(values).toMatchObject({ servedDay: '2026-11-19', servedTime: '15:30', outcome: '维持现有配置', nextStep: '' });
    expect(changedFields(values, values)).toEqual([]);
    expect(changedFields(values, { ...values, note: ' 检视组合 ' })).toEqual([]);
    expect(changedFields(values, { ...values, servedTime: '16:00', outcome: '' })).toEqual(['outcome', 'servedTime']);
  });

  test('after a conflict: a field both changed is mine to choose, theirs alone is taken, mine alone kept', () => {
    const started = recordFormValues(record);
    const mine = { ...started, note: '检视组合，客户想加仓科技股', servedTime: '16:00' };
    const latest = { ...started, note: '检视组合，客户考虑加仓', outcome: '客户考虑加仓' };
    expect(contactMerge(started, mine, latest)).toEqual({ clashes: ['note'], taken: ['outcome'], kept: ['servedTime'] });
    expect(mergedContact(started, mine, latest, { note: 'theirs' })).toEqual({ ...latest, servedTime: '16:00' });
    expect(mergedContact(started, mine, latest, { note: 'mine' })).toEqual({ ...latest, note: mine.note, servedTime: '16:00' });
    expect(mergedContact(started, mine, latest, { note: 'both' }).note).toBe(`${latest.note}\n${mine.note}`);
    // Only what would be sent counts: spaces around a note are no change.
    expect(contactMerge(started, { ...started, note: ` ${started.note} ` }, latest).clashes).toEqual([]);
  });
});

describe('drafts read back from storage are checked', () => {
  const draft = { values: base(), eventIds: [1], requestId: newRequestId(), followsRecordId: null };

  test('a well-formed draft is accepted, with the request id of its attempt', () => {
    expect(isNewContactDraft(draft)).toBe(true);
    expect(isReviseDraft({ basedOn: 7, edits: 0, started: base(), values: base(), reason: '' })).toBe(true);
  });

  test('anything else is refused', () => {
    expect(isNewContactDraft({ ...draft, requestId: 'not-a-uuid' })).toBe(false);
    expect(isNewContactDraft({ ...draft, eventIds: [0] })).toBe(false);
    expect(isNewContactDraft({ ...draft, values: { ...draft.values, channel: 'fax' } })).toBe(false);
    expect(isNewContactDraft({ ...draft, values: { ...draft.values, note: 42 } })).toBe(false);
    expect(isNewContactDraft(null)).toBe(false);
    expect(isReviseDraft({ basedOn: -1, edits: 0, started: base(), values: base(), reason: '' })).toBe(false);
    expect(isReviseDraft({ basedOn: 7, edits: -1, started: base(), values: base(), reason: '' })).toBe(false);
    expect(isReviseDraft({ basedOn: 7, edits: 0, values: base(), reason: '' })).toBe(false);
  });

  test('request ids are fresh UUIDs (version 4)', () => {
    const ids = new Set(Array.from({ length: 50 }, () => newRequestId()));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  test('text handed over is added on a line of its own, never twice', () => {
    expect(appendText('', '客户来电')).toBe('客户来电');
    expect(appendText('已回电', '客户来电')).toBe('已回电\n客户来电');
    expect(appendText('已回电\n客户来电', '客户来电')).toBe('已回电\n客户来电');
    expect(appendText('已回电', '  ')).toBe('已回电');
  });
});
