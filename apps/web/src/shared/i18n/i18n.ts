import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { zhCN } from './locales/zh-CN';
import { zhHK } from './locales/zh-HK';
import { en } from './locales/en';
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
  resources: { 'zh-CN': { translation: zhCN }, 'zh-HK': { translation: zhHK }, en: { translation: en } },
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

/** Switches the language and remembers it across visits. */
export async function changeLanguage(language: Language) {
  localStorage.setItem(StorageKey.language, language);
  await i18n.changeLanguage(language);
}

export const currentLanguage = (): Language => (isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE);
