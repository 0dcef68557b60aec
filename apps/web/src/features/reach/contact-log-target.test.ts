import { describe, expect, test } from 'vitest';
import { contactLogTarget } from './contact-log-target';

describe('the log form a contact leads to', () => {
  test('names the client, the channel and the moment; the event when there is one', () => {
    expect(contactLogTarget({ customerId: 42, channel: 'phone', at: 1_795_000_000_123.9 })).toBe(
      '/client/contact/new?customerId=42&channel=phone&at=1795000000123',
    );
    expect(contactLogTarget({ customerId: 42, channel: 'wecom', at: 1, eventId: 7 })).toBe(
      '/client/contact/new?customerId=42&channel=wecom&at=1&eventId=7',
    );
  });
});
