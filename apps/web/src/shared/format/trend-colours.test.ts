import { afterEach, expect, test } from 'vitest';
import { changeLanguage } from '../i18n/i18n';
import { StorageKey } from '../session/storage-keys';
import { defaultTrendColours, installTrendColours, useTrendColoursSetting } from './trend-colours';

afterEach(async () => {
  useTrendColoursSetting.setState({ chosen: null });
  await changeLanguage('zh-CN');
});

test('Chinese readers get red up, English readers green up, until they choose', () => {
  expect(defaultTrendColours('zh-CN')).toBe('redUp');
  expect(defaultTrendColours('zh-HK')).toBe('redUp');
  expect(defaultTrendColours('en')).toBe('greenUp');
});

test('one attribute on the root follows the language and then the choice, and the choice is kept', async () => {
  const root = document.createElement('div');
  installTrendColours(root);
  expect(root.dataset.trend).toBe('redUp');
  await changeLanguage('en');
  expect(root.dataset.trend).toBe('greenUp');
  useTrendColoursSetting.getState().choose('redUp');
  expect(root.dataset.trend).toBe('redUp');
  expect(JSON.parse(localStorage.getItem(StorageKey.trendColours) ?? '{}')).toMatchObject({ state: { chosen: 'redUp' } });
  await changeLanguage('zh-HK');
  expect(root.dataset.trend).toBe('redUp');
});

test('a stored value that is not a known choice is no choice', async () => {
  localStorage.setItem(StorageKey.trendColours, JSON.stringify({ state: { chosen: 'purpleUp' }, version: 0 }));
  await useTrendColoursSetting.persist.rehydrate();
  expect(useTrendColoursSetting.getState().chosen).toBeNull();
});
