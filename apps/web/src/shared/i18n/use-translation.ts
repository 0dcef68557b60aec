import { useMemo, useSyncExternalStore } from 'react';
import { i18n } from './i18n';
import type { TFunction, TOptions } from './translator';

const subscribe = (onChange: () => void) => i18n.onLanguageChanged(onChange);
const language = () => i18n.language;

/** The current language's strings, as react-i18next gave them: a change re-renders and gives a new `t` (memos on it recompute). */
export function useTranslation(): { t: TFunction; i18n: typeof i18n } {
  const current = useSyncExternalStore(subscribe, language);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new t for each language is the point
  const t = useMemo(() => ((key: string, options?: TOptions) => i18n.translate(key, options)) as TFunction, [current]);
  return { t, i18n };
}
