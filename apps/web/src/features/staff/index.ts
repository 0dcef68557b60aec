import { lazy } from 'react';
import type * as CurrencySwitcherModule from './currency-switcher';

export { loadUserSettings, exchangeRatesQuery, defaultCurrencyQuery, motFoldQuery } from './user-settings';

let switcherModule: Promise<typeof CurrencySwitcherModule> | undefined;
/** Starts loading the switcher; pages that show it call this when their own module loads, so it is there with their data. */
export const preloadCurrencySwitcher = () => (switcherModule ??= import('./currency-switcher'));
/** Lazy so that start-up (which needs only loadUserSettings) does not carry it; render inside <Suspense>. */
export const CurrencySwitcher = lazy(preloadCurrencySwitcher);
