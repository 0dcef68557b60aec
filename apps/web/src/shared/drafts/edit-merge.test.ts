import { describe, expect, test } from 'vitest';
import { bothLists, bothTexts, compareEdits, mergeEdits } from './edit-merge';

type Form = { name: string; remark: string; email: string; phone: string };
const started: Form = { name: 'WONG Wai', remark: 'call after 6pm', email: 'wai@example.com', phone: '' };
const asText = (form: Form) => ({ ...form });

describe('compareEdits: each field against what the edit started from', () => {
  test('both changed, differently: a clash; only they: taken; only me, or both to the same: kept; neither: nothing', () => {
    const mine = { ...started, remark: 'my note', name: 'WONG Tai Wai', phone: '+852 6123 4567' };
    const latest = { ...started, remark: 'their note', email: 'new@example.com', phone: '+852 6123 4567' };
    expect(compareEdits(asText(started), asText(mine), asText(latest))).toEqual({
      clashes: ['remark'],
      taken: ['email'],
      kept: ['name', 'phone'],
    });
  });

  test('nothing saved meanwhile: every change of mine is kept, nothing to choose', () => {
    const mine = { ...started, remark: 'my note' };
    expect(compareEdits(asText(started), asText(mine), asText(started))).toEqual({ clashes: [], taken: [], kept: ['remark'] });
  });
});

describe('mergeEdits: the latest version, my changes on top, each clash as chosen', () => {
  const mine = { ...started, remark: 'my note', name: 'WONG Tai Wai' };
  const latest = { ...started, remark: 'their note', email: 'new@example.com' };
  const merge = compareEdits(asText(started), asText(mine), asText(latest));
  const both = (_: keyof Form, theirs: string, typed: string) => bothTexts(theirs, typed);

  test.each([
    ['mine', 'my note'],
    ['theirs', 'their note'],
    ['both', 'their note\nmy note'],
  ] as const)('%s', (choice, remark) => {
    expect(mergeEdits(merge, mine, latest, { remark: choice }, both)).toEqual({ ...latest, name: 'WONG Tai Wai', remark });
  });

  test('their other changes are in and my other changes are kept, whatever the choice', () => {
    const merged = mergeEdits(merge, mine, latest, { remark: 'mine' }, both);
    expect(merged.email).toBe('new@example.com');
    expect(merged.name).toBe('WONG Tai Wai');
  });
});

describe('keeping both', () => {
  test('texts: the saved one first, mine on its own line; once when one already holds the other', () => {
    expect(bothTexts('prefers calls', 'VIP since 2020')).toBe('prefers calls\nVIP since 2020');
    expect(bothTexts('prefers calls', 'prefers calls, after 6pm')).toBe('prefers calls, after 6pm');
    expect(bothTexts('prefers calls after 6pm', 'after 6pm')).toBe('prefers calls after 6pm');
  });

  test('lists: the saved one, then what only mine has', () => {
    expect(bothLists(['VIP', 'HNW'], ['VIP', 'Tech'])).toEqual(['VIP', 'HNW', 'Tech']);
  });
});
