import { expect, test } from 'vitest';
import { rootFontSizeFor } from './rem';

test('root font size is a tenth of the width, capped at 440 wide', () => {
  expect(rootFontSizeFor(375)).toBe(37.5);
  expect(rootFontSizeFor(320)).toBe(32);
  expect(rootFontSizeFor(440)).toBe(44);
  expect(rootFontSizeFor(1024)).toBe(44);
});
