import { describe, expect, test } from 'vitest';
import { AT_CLOCK_SKEW_MS, AT_MAX_AGE_MS, parseContactFormParams, parseCustomerId, parseRecordId } from './contact-params';
import { contactFormPath } from './contact-paths';

const NOW = Date.UTC(2026, 10, 20, 2, 0);
const parse = (query: string) => parseContactFormParams(new URLSearchParams(query), NOW);

describe("the log form's query, checked by one parser", () => {
  test('every value the link carries prefills the form', () => {
    const at = NOW - 60_000;
    expect(parse(`customerId=12&channel=wecom&eventId=34&at=${at}&followsRecordId=56`)).toEqual({
      ok: true,
      params: { customerId: 12, channel: 'wecom', eventId: 34, at, followsRecordId: 56 },
      ignored: [],
    });
    expect(parse('customerId=12')).toEqual({
      ok: true,
      params: { customerId: 12, channel: null, eventId: null, at: null, followsRecordId: null },
      ignored: [],
    });
  });

  test('no usable client: the form cannot open', () => {
    for (const query of [
      '',
      'customerId=',
      'customerId=0',
      'customerId=-3',
      'customerId=1.5',
      'customerId=abc',
      'customerId=1&customerId=2',
    ])
      expect(parse(query).ok, query).toBe(false);
    expect(parse('customerId=%2012').ok).toBe(false);
    expect(parse('customerId=1e3').ok).toBe(false);
    expect(parse('customerId=0x10').ok).toBe(false);
    expect(parse(`customerId=${Number.MAX_SAFE_INTEGER + 2}`).ok).toBe(false);
  });

  test('a value that fails its rule is left out and named, the rest still used', () => {
    const result = parse('customerId=7&channel=fax&eventId=-1&at=tomorrow&followsRecordId=1;DROP');
    expect(result).toEqual({
      ok: true,
      params: { customerId: 7, channel: null, eventId: null, at: null, followsRecordId: null },
      ignored: ['channel', 'eventId', 'followsRecordId', 'at'],
    });
    // A repeated key is ambiguous: refused rather than one of them guessed.
    expect(parse('customerId=7&channel=phone&channel=wecom')).toMatchObject({ params: { channel: null }, ignored: ['channel'] });
    // Case matters: the contract's codes are lower case.
    expect(parse('customerId=7&channel=PHONE')).toMatchObject({ ignored: ['channel'] });
  });

  test('`at` is a moment just past: not in the future beyond clock skew, not months ago', () => {
    expect(parse(`customerId=1&at=${NOW + AT_CLOCK_SKEW_MS - 1}`)).toMatchObject({ params: { at: NOW }, ignored: [] });
    expect(parse(`customerId=1&at=${NOW + AT_CLOCK_SKEW_MS + 1}`)).toMatchObject({ params: { at: null }, ignored: ['at'] });
    expect(parse(`customerId=1&at=${NOW - AT_MAX_AGE_MS - 1}`)).toMatchObject({ params: { at: null }, ignored: ['at'] });
    expect(parse('customerId=1&at=')).toMatchObject({ ignored: ['at'] });
  });

  test('the record and log pages read their ids by the same rules', () => {
    expect(parseRecordId(new URLSearchParams('recordId=42'))).toBe(42);
    expect(parseRecordId(new URLSearchParams('recordId=42abc'))).toBeNull();
    expect(parseRecordId(new URLSearchParams(''))).toBeNull();
    expect(parseCustomerId(new URLSearchParams('customerId=9'))).toBe(9);
    expect(parseCustomerId(new URLSearchParams('customerId=9&customerId=9'))).toBeNull();
  });

  test('a link after a contact names the client, the channel and the moment; the event when there is one', () => {
    expect(contactFormPath({ customerId: 42, channel: 'phone', at: 1_795_000_000_123.9 })).toBe(
      '/client/contact/new?customerId=42&channel=phone&at=1795000000123',
    );
    expect(contactFormPath({ customerId: 42, channel: 'wecom', at: 1, eventId: 7 })).toBe(
      '/client/contact/new?customerId=42&channel=wecom&at=1&eventId=7',
    );
  });

  test('a link built by contactFormPath reads back as it was built', () => {
    const params = { customerId: 3, channel: 'phone' as const, eventId: 8, at: NOW - 5_000, followsRecordId: 2 };
    const path = contactFormPath(params);
    expect(path.startsWith('/client/contact/new?')).toBe(true);
    expect(parseContactFormParams(new URLSearchParams(path.split('?')[1]), NOW)).toEqual({ ok: true, params, ignored: [] });
  });
});
