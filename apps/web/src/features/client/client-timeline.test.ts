import { expect, test } from 'vitest';
import { isKindList, toggleKind } from './client-timeline';

test('a kind is switched on and off, the list kept in the contract’s order, never emptied', () => {
  expect(toggleKind(['mot', 'contact'], 'trade')).toEqual(['contact', 'mot', 'trade']);
  expect(toggleKind(['contact', 'mot', 'trade'], 'mot')).toEqual(['contact', 'trade']);
  expect(toggleKind(['kyc'], 'kyc')).toEqual(['kyc']);
});

test('a filter restored from storage is taken only as a non-empty list of known kinds, each once', () => {
  expect(isKindList(['contact', 'trade'])).toBe(true);
  for (const stored of [[], ['contact', 'contact'], ['gossip'], 'contact', null, [1], new Array(8).fill('trade')]) {
    expect(isKindList(stored), JSON.stringify(stored)).toBe(false);
  }
});
