import { expect, test } from 'vitest';
import { clientName } from './client-name';

test('a client is named by their Chinese name, or by their English name when they have none', () => {
  expect(clientName({ nameCn: '何志辉', nameEn: 'HO Chi Fai' })).toBe('何志辉');
  expect(clientName({ nameCn: '', nameEn: 'Christopher Montgomery' })).toBe('Christopher Montgomery');
});
