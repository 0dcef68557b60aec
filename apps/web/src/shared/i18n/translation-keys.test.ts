import { expect, test } from 'vitest';
import { i18n } from './i18n';

// The type check is the test (`tsc -p apps/web/tsconfig.json`): each @ts-expect-error below fails it if `t` stops
// refusing the key, e.g. were its keys ever typed `string` again.
test('t takes the keys that exist, and refuses a misspelt or missing one at typecheck', () => {
  expect(i18n.t('nav.back', { lng: 'en' })).toBe('Back');
  // @ts-expect-error a misspelt key
  expect(i18n.t('nav.bakc', { lng: 'en' })).toBe('nav.bakc');
  // @ts-expect-error a group is not a string
  expect(i18n.t('nav', { lng: 'en' })).toBe('nav');
  // A key built from data: its group must exist and hold strings, and what has no string says defaultValue.
  expect(i18n.t(`language.${'fr' as string}`, { defaultValue: 'fr' })).toBe('fr');
  // @ts-expect-error a misspelt group
  expect(i18n.t(`langauge.${'en' as string}`, { defaultValue: 'en' })).toBe('en');
});
