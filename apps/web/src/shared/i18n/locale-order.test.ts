import { expect, test } from 'vitest';
import { i18n, loadLanguage, registerLocales } from './i18n';

/** A loader that answers after `ms`: chunks arrive in any order. */
const after = (ms: number, strings: Record<string, unknown>) => () =>
  new Promise<Record<string, unknown>>((resolve) => setTimeout(() => resolve(strings), ms));

// Before: each chunk was added as it arrived, so the app's late chunk could land on a feature's strings
// (zh-HK client list titles came from stale app strings in one screenshot run).
test("a later-registered set's strings win in every language, whatever order their chunks arrive in", async () => {
  void registerLocales({
    'zh-CN': { order: { title: '应用' } },
    'zh-HK': after(60, { order: { title: '應用' } }),
    en: after(60, { order: { title: 'App' } }),
  });
  void registerLocales({
    'zh-CN': { order: { title: '功能' } },
    'zh-HK': after(0, { order: { title: '功能' } }),
    en: { order: { title: 'Feature' } },
  });
  await loadLanguage('zh-HK');
  await loadLanguage('en');
  expect(i18n.translate('order.title', { lng: 'zh-CN' })).toBe('功能');
  expect(i18n.translate('order.title', { lng: 'zh-HK' })).toBe('功能');
  expect(i18n.translate('order.title', { lng: 'en' })).toBe('Feature');
});
