import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as OpenCC from 'opencc-js';
import { expect, test, vi } from 'vitest';

const SRC = resolve('apps/web/src');
const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });

/** Proper names, written as their owners write them: each language is named in its own script (the picker, the templates). */
const PROPER_NAMES = ['简体中文', '简体'];

/**
 * A character no Traditional standard keeps as it is: OpenCC's own, Taiwan's and Hong Kong's all replace it.
 * Judged one character at a time, so a phrase choice (周年 → 週年) is not taken for a Simplified character.
 */
const toTraditional = (['t', 'tw', 'hk'] as const).map((to) => OpenCC.Converter({ from: 'cn', to }));
const isSimplifiedOnly = (character: string) => toTraditional.every((convert) => convert(character) !== character);
const simplifiedIn = (text: string) => {
  const words = PROPER_NAMES.reduce((rest, name) => rest.replaceAll(name, ''), text);
  return [...new Set([...words].filter(isSimplifiedOnly))].join('');
};

function* leaves(strings: unknown, path: string): Generator<[string, string]> {
  if (typeof strings === 'string') yield [path, strings];
  else if (typeof strings === 'object' && strings !== null)
    for (const [key, value] of Object.entries(strings)) yield* leaves(value, path ? `${path}.${key}` : key);
}

test('every zh-HK string is written in Traditional characters (no Simplified-only character outside proper names)', async () => {
  vi.resetModules();
  const { Translator } = await import('./translator');
  const addResourceBundle = vi.spyOn(Translator.prototype, 'addResourceBundle');
  const registering = sources(SRC).filter((file) => readFileSync(file, 'utf8').includes('registerLocales('));
  expect(registering.length, 'the modules that register strings').toBeGreaterThan(10);
  for (const file of registering) await import(/* @vite-ignore */ file);
  const { loadLanguage } = await import('./i18n');
  await loadLanguage('zh-HK');
  const added = addResourceBundle.mock.calls.flatMap(([language, strings]) => (language === 'zh-HK' ? [strings] : []));
  addResourceBundle.mockRestore();

  const found = new Set(
    added.flatMap((strings) =>
      [...leaves(strings, '')].flatMap(([key, text]) => {
        const simplified = simplifiedIn(text);
        return simplified ? [`${key}: ${simplified} in "${text}"`] : [];
      }),
    ),
  );
  expect(added.length, 'zh-HK string sets seen').toBeGreaterThan(10);
  expect([...found]).toEqual([]);
});

test('every zh-HK message a client is sent is written in Traditional characters', async () => {
  const { MESSAGE_TEMPLATES, composeMessage } = await import('../../features/reach/message-templates');
  const card = { link: 'https://example.com/', imgUrl: '' };
  const found = MESSAGE_TEMPLATES.flatMap((template) =>
    (['text', 'card'] as const).flatMap((kind) => {
      const message = composeMessage(template, kind, 'zh-HK', { nameCn: '陳大文', nameEn: 'Chan Tai Man' }, card);
      const text = message.msgtype === 'text' ? message.text.content : `${message.news.title} ${message.news.desc}`;
      const simplified = simplifiedIn(text);
      return simplified ? [`${template} ${kind}: ${simplified} in "${text}"`] : [];
    }),
  );
  expect(found).toEqual([]);
});
