import { describe, expect, test } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { Translator, type TOptions } from './translator';
import { i18n, LANGUAGES, loadLanguage } from './i18n';
import { useTranslation } from './use-translation';

/**
 * Every module that registers strings, found by name so that a new feature's strings are checked too; a module
 * that registers them on demand exports a `register…` function, called below.
 */
const LOCALE_MODULES = import.meta.glob<Record<string, unknown>>(['../../features/*/*locales.ts', '../api/error-messages.ts'], {
  eager: true,
});

const translator = () => {
  const t = new Translator('en', 'zh-CN');
  t.addResourceBundle('zh-CN', { a: { only: '只有中文', both: '中文', list: ['一', '{{n}}'] }, greet: '你好 {{name}}' });
  t.addResourceBundle('en', { a: { both: 'English' }, greet: 'Hello {{name}}', deep: { 'dotted.key': 'found' } });
  return t;
};
/** A translator's lookup with any key: these strings are the test's own, not the app's typed ones. */
const untyped = (translator: Translator) => (key: string, options?: TOptions) => translator.translate(key, options);

describe('Translator (the i18next rules the app used)', () => {
  test('the current language, then the fallback language, then defaultValue (even empty), then the key', () => {
    const t = untyped(translator());
    expect(t('a.both')).toBe('English');
    expect(t('a.only')).toBe('只有中文');
    expect(t('a.missing', { defaultValue: 'D' })).toBe('D');
    expect(t('a.missing', { defaultValue: '' })).toBe('');
    expect(t('a.missing')).toBe('a.missing');
    expect(t('a.both', { lng: 'zh-CN' })).toBe('中文');
  });

  test('placeholders: given values once, undefined or null as empty, a value not given left as written', () => {
    const t = untyped(translator());
    expect(t('greet', { name: 'Wong' })).toBe('Hello Wong');
    expect(t('greet', { name: 3 })).toBe('Hello 3');
    expect(t('greet', { name: undefined })).toBe('Hello ');
    expect(t('greet', { name: null })).toBe('Hello ');
    expect(t('greet')).toBe('Hello {{name}}');
    expect(t('greet', { name: '{{name}}' })).toBe('Hello {{name}}');
    expect(t('x', { defaultValue: '{{ who.first }}!', who: { first: 'Chan' } })).toBe('Chan!');
  });

  test("plurals: with a count, the form picked by the language's plural rules, else the plain string", () => {
    const t = new Translator('en', 'zh-CN');
    t.addResourceBundle('zh-CN', { records: '{{count}} 条记录' });
    t.addResourceBundle('en', { records: '{{count}} records', records_one: '{{count}} record', days: '{{count}} days' });
    expect(untyped(t)('records', { count: 1 })).toBe('1 record');
    expect(untyped(t)('records', { count: 0 })).toBe('0 records');
    expect(untyped(t)('records', { count: 2 })).toBe('2 records');
    expect(untyped(t)('records')).toBe('{{count}} records');
    expect(untyped(t)('days', { count: 1 })).toBe('1 days');
    expect(untyped(t)('records', { count: 1, lng: 'zh-CN' })).toBe('1 条记录');
  });

  test('returnObjects answers the strings below a key, interpolated', () => {
    const t = untyped(translator());
    expect(t('a.list', { returnObjects: true, n: 2 })).toEqual(['一', '2']);
  });

  test('keys with dots inside are found, as i18next finds them', () => {
    expect(untyped(translator())('deep.dotted.key')).toBe('found');
  });

  test('a later bundle wins key by key, and the bundles given are left as they were', () => {
    const t = translator();
    const later = { a: { both: 'Later' } };
    t.addResourceBundle('en', later);
    expect(untyped(t)('a.both')).toBe('Later');
    expect(untyped(t)('greet', { name: 'x' })).toBe('Hello x');
    t.addResourceBundle('en', { a: { both: 'Last', extra: 'e' } });
    expect(later).toEqual({ a: { both: 'Later' } });
  });

  test('a language change is announced, and components using the hook render in the new language', async () => {
    function Title() {
      const { t } = useTranslation();
      return <h1>{t('nav.back')}</h1>;
    }
    await i18n.changeLanguage('zh-CN');
    render(<Title />);
    const before = screen.getByRole('heading').textContent;
    await act(() => i18n.changeLanguage('en'));
    expect(screen.getByRole('heading').textContent).not.toBe(before);
    expect(screen.getByRole('heading').textContent).toBe(i18n.t('nav.back'));
    expect(document.documentElement.lang).toBe('en');
    await act(() => i18n.changeLanguage('zh-CN'));
    expect(screen.getByRole('heading').textContent).toBe(before);
  });
});

/** What i18next would read in a string or key that the Translator does not: none of it may appear. */
const UNSUPPORTED = [
  { what: 'a plural category none of our languages uses, or a context suffix', key: /_(zero|two|few|many|male|female)$/ },
  { what: 'a nested $t()', text: /\$t\(/ },
  { what: 'a format', text: /\{\{[^}]*,[^}]*\}\}/ },
  { what: 'an unescaped placeholder', text: /\{\{-/ },
];

test('every string of the app uses only what the Translator reads the way i18next did', async () => {
  expect(Object.keys(LOCALE_MODULES).length).toBeGreaterThan(5);
  for (const module of Object.values(LOCALE_MODULES)) {
    for (const [name, value] of Object.entries(module)) if (/^register/.test(name) && typeof value === 'function') await value();
  }
  for (const language of LANGUAGES) await loadLanguage(language);
  const found: string[] = [];
  const walk = (value: unknown, at: string) => {
    if (typeof value === 'string') {
      for (const rule of UNSUPPORTED) if (rule.text?.test(value)) found.push(`${at}: ${rule.what}`);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    for (const [key, child] of Object.entries(value)) {
      for (const rule of UNSUPPORTED) if (rule.key?.test(key)) found.push(`${at}.${key}: ${rule.what}`);
      // A plural form stands beside the plain string, which every other count and language falls back to.
      const plain = /^(.+)_(one|other)$/.exec(key)?.[1];
      if (plain !== undefined && typeof (value as Record<string, unknown>)[plain] !== 'string')
        found.push(`${at}.${key}: a plural form without the plain \`${plain}\``);
      walk(child, at ? `${at}.${key}` : key);
    }
  };
  const strings = (i18n as unknown as { strings: Map<string, unknown> }).strings;
  for (const [language, all] of strings) walk(all, language);
  expect(strings.size).toBe(LANGUAGES.length);
  expect(found).toEqual([]);
});
