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
/** A set of strings: the default language's at hand, the others as loaders (their own chunks). */
export type LocaleSet = { [L in Language]: L extends typeof DEFAULT_LANGUAGE ? Strings : () => Promise<Strings> };

const localeSets: LocaleSet[] = [];
const loaded = new Set<string>();

async function loadInto(set: LocaleSet, language: Language) {
  const key = `${localeSets.indexOf(set)}:${language}`;
  if (language === DEFAULT_LANGUAGE || loaded.has(key)) return;
  const load = set[language] as () => Promise<Strings>;
  i18n.addResourceBundle(language, 'translation', await load(), true, true);
  loaded.add(key);
}

/**
 * Registers a feature's strings: the default language's now, the current language's (if another) loaded
 * before the returned promise settles, and any other language's when the user switches to it.
 */
export async function registerLocales(set: LocaleSet) {
  localeSets.push(set);
  i18n.addResourceBundle(DEFAULT_LANGUAGE, 'translation', set[DEFAULT_LANGUAGE], true, true);
  await loadInto(set, currentLanguage());
}

/** Every registered string set in `language` (tests use it to have all three languages at hand). */
export const loadLanguage = (language: Language) => Promise.all(localeSets.map((set) => loadInto(set, language)));

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
