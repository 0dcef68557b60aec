import type { Language } from './i18n';

/** English's two forms of a counted string: `one` is looked up as `key_one` when `count` is 1 (translator.ts). */
interface Counted {
  one: string;
  other: string;
}

/** One string in zh-CN, zh-HK and en, side by side, so none can lack a language (or a list of strings: the weekdays). */
export type Entry = readonly [string, string, string | Counted] | readonly [string[], string[], string[]];

export interface Entries {
  readonly [key: string]: Entry | Entries;
}

/** A language's strings, shaped as the entries are: what `StringSets` and the translator take. */
export type InOneLanguage<T> = {
  [K in keyof T]: T[K] extends Entry ? (T[K][0] extends string ? string : string[]) : InOneLanguage<T[K]>;
};

const isEntry = (value: Entry | Entries): value is Entry => Array.isArray(value);

function inLanguage(entries: Entries, index: 0 | 1 | 2) {
  const strings: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entries)) {
    if (!isEntry(value)) {
      strings[key] = inLanguage(value, index);
      continue;
    }
    const text = value[index];
    if (typeof text === 'string' || Array.isArray(text)) strings[key] = text;
    else {
      strings[key] = text.other;
      strings[`${key}_one`] = text.one;
    }
  }
  return strings;
}

/** Entries as i18n takes them: one object of strings per language (`registerLocales`). */
export const byLanguage = <T extends Entries>(entries: T) =>
  ({ 'zh-CN': inLanguage(entries, 0), 'zh-HK': inLanguage(entries, 1), en: inLanguage(entries, 2) }) as {
    [L in Language]: InOneLanguage<T>;
  };
