import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { zhCN } from './locales/zh-CN';
import { StorageKey } from '../session/storage-keys';

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

export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  // Only the default language (every language's fallback) is bundled; the others load when in use.
  resources: { 'zh-CN': { translation: zhCN } },
  partialBundledLanguages: true,
  lng: storedLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
});

const syncHtmlLang = (language: string) => {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
};
syncHtmlLang(i18n.language);
i18n.on('languageChanged', syncHtmlLang);

type Strings = Record<string, unknown>;
type Loader = () => Promise<Strings>;
/**
 * A set of strings in every language: the default language's at hand; each other language's either at
 * hand too (a feature small enough to bundle all three) or a loader (its own chunk, loaded when in use).
 */
export type LocaleSet = { [L in Language]: L extends typeof DEFAULT_LANGUAGE ? Strings : Strings | Loader };

const registered = new Map<LocaleSet, Promise<void>>();
const loaded = new Set<string>();

async function loadInto(set: LocaleSet, language: Language) {
  const key = `${[...registered.keys()].indexOf(set)}:${language}`;
  const strings = set[language];
  if (typeof strings !== 'function' || loaded.has(key)) return;
  i18n.addResourceBundle(language, 'translation', await strings(), true, true);
  loaded.add(key);
}

/**
 * The one way strings get into i18n, for the app and every feature: the default language's and any
 * other bundled language's now, the current language's (if a loader) before the returned promise
 * settles, and any other language's when the user switches to it. Registering the same set again
 * is a no-op that returns the same promise.
 */
export function registerLocales(set: LocaleSet): Promise<void> {
  let ready = registered.get(set);
  if (!ready) {
    for (const language of LANGUAGES) {
      const strings = set[language];
      if (typeof strings !== 'function') i18n.addResourceBundle(language, 'translation', strings, true, true);
    }
    // Known before its loader runs, so the load's key is this set's.
    registered.set(set, Promise.resolve());
    ready = loadInto(set, currentLanguage());
    registered.set(set, ready);
  }
  return ready;
}

/** Every registered string set in `language` (tests use it to have all three languages at hand). */
export const loadLanguage = (language: Language) => Promise.all([...registered.keys()].map((set) => loadInto(set, language)));

/** Switches the language (after loading its strings) and remembers it across visits. */
export async function changeLanguage(language: Language) {
  await loadLanguage(language);
  localStorage.setItem(StorageKey.language, language);
  await i18n.changeLanguage(language);
}

export const currentLanguage = (): Language => (isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE);

/**
 * The app's own strings. For a user who chose another language the first render waits for this (one small
 * chunk) rather than showing the default language first; main.tsx awaits it. (Not a top-level await: that
 * made the bundler split the start-up code into many more chunks.)
 */
export const i18nReady = registerLocales({
  'zh-CN': zhCN,
  'zh-HK': () => import('./locales/zh-HK').then((module) => module.zhHK),
  en: () => import('./locales/en').then((module) => module.en),
});
