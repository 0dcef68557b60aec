import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { i18n } from '../i18n/i18n';
import { StorageKey } from '../session/storage-keys';

/** Which colour a rise takes: red (the mainland's and Chinese-language apps' convention) or green (international). */
export const TREND_COLOURS = ['redUp', 'greenUp'] as const;
export type TrendColours = (typeof TREND_COLOURS)[number];

/** The default before the user chooses: Chinese readers red up, English readers green up (ADR 0048). */
export const defaultTrendColours = (language: string): TrendColours => (language.startsWith('zh') ? 'redUp' : 'greenUp');

interface TrendColoursState {
  /** Null until the user picks one in the "me" sheet: the language's default applies. */
  chosen: TrendColours | null;
  choose(colours: TrendColours): void;
}

/** Kept in localStorage like the language: a way of reading figures belongs to the person, not the tab. */
export const useTrendColoursSetting = create<TrendColoursState>()(
  persist((set) => ({ chosen: null, choose: (chosen) => set({ chosen }) }), {
    name: StorageKey.trendColours,
    storage: createJSONStorage(() => localStorage),
    partialize: ({ chosen }) => ({ chosen }),
    // Stored text is untrusted: anything but a known choice is no choice.
    merge: (stored, current) => {
      const chosen = (stored as { chosen?: unknown } | undefined)?.chosen;
      return { ...current, chosen: TREND_COLOURS.includes(chosen as TrendColours) ? (chosen as TrendColours) : null };
    },
  }),
);

export const trendColoursFor = (chosen: TrendColours | null, language: string): TrendColours => chosen ?? defaultTrendColours(language);

/** Gain/loss colours are `var(--ba-gain)` / `var(--ba-loss)` (global.css): this sets the attribute deciding them, now and on change. */
export function installTrendColours(root: HTMLElement = document.documentElement): void {
  const apply = () => {
    root.dataset.trend = trendColoursFor(useTrendColoursSetting.getState().chosen, i18n.language);
  };
  apply();
  useTrendColoursSetting.subscribe(apply);
  i18n.onLanguageChanged(apply);
}
