import { zhCN } from './locales/zh-CN';
import { StorageKey } from '../session/storage-keys';
import { Translator, type Strings } from './translator';

export const LANGUAGES = ['zh-CN', 'zh-HK', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'zh-CN';

const isLanguage = (value: unknown): value is Language => LANGUAGES.includes(value as Language);

function storedLanguage(): Language {
  try {
    const stored = localStorage.getItem(StorageKey.language);
    return isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

// Only the default language (every language's fallback) is bundled; the others load when in use (i18nReady below).
export const i18n = new Translator(storedLanguage(), DEFAULT_LANGUAGE);

const syncHtmlLang = (language: string) => {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
};
syncHtmlLang(i18n.language);
i18n.onLanguageChanged(syncHtmlLang);

type Loader = () => Promise<Strings>;
/** A set of strings in every language: the default language's at hand; each other one at hand too, or a loader (its own chunk). */
export type LocaleSet = { [L in Language]: L extends typeof DEFAULT_LANGUAGE ? Strings : Strings | Loader };

/** In registration order: the app's own strings first, then each feature's, whose strings win where both name a key. */
const registered: LocaleSet[] = [];
const ready = new WeakMap<LocaleSet, Promise<void>>();
const loadedLanguages = new WeakMap<LocaleSet, Set<Language>>();

/** A set's strings in `language` still to be fetched from their chunk, or null if bundled or fetched already. */
async function fetchStrings(set: LocaleSet, language: Language): Promise<Strings | null> {
  const strings = set[language];
  return typeof strings === 'function' && !loadedLanguages.get(set)?.has(language) ? strings() : null;
}

function addStrings(set: LocaleSet, language: Language, strings: Strings) {
  i18n.addResourceBundle(language, strings);
  const languages = loadedLanguages.get(set) ?? new Set<Language>();
  languages.add(language);
  loadedLanguages.set(set, languages);
}

/**
 * The one way strings get into i18n: bundled languages now, the current language's loader before the promise settles, another
 * language's when the user switches to it. Registering the same set again returns the same promise.
 */
export function registerLocales(set: LocaleSet): Promise<void> {
  const known = ready.get(set);
  if (known) return known;
  registered.push(set);
  for (const language of LANGUAGES) {
    const strings = set[language];
    if (typeof strings !== 'function') i18n.addResourceBundle(language, strings);
  }
  const language = currentLanguage();
  const loading = fetchStrings(set, language).then((strings) => {
    if (strings) addStrings(set, language, strings);
  });
  ready.set(set, loading);
  return loading;
}

/** Every registered set in `language`, fetched together and added in registration order, so the app's strings never land on a feature's. */
export async function loadLanguage(language: Language) {
  const sets = [...registered];
  const fetched = await Promise.all(sets.map((set) => fetchStrings(set, language)));
  if (!fetched.some(Boolean)) return;
  sets.forEach((set, index) => {
    const bundled = set[language];
    const strings = fetched[index] ?? (typeof bundled === 'function' ? null : bundled);
    if (strings) addStrings(set, language, strings);
  });
}

/** Switches the language (after loading its strings) and remembers it across visits. */
export async function changeLanguage(language: Language) {
  await loadLanguage(language);
  localStorage.setItem(StorageKey.language, language);
  await i18n.changeLanguage(language);
}

export const currentLanguage = (): Language => (isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE);

/** The app's own strings; the first render waits for them (main.tsx), not a top-level await, which split start-up into more chunks. */
export const i18nReady = registerLocales({
  'zh-CN': zhCN,
  'zh-HK': () => import('./locales/zh-HK').then((module) => module.zhHK),
  en: () => import('./locales/en').then((module) => module.en),
});
