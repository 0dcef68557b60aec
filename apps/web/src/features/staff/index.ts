import { lazy } from 'react';

export { loadUserSettings, exchangeRatesQuery, defaultCurrencyQuery, motFoldQuery } from './user-settings';
/** Lazy so that start-up (which needs only loadUserSettings) does not carry it; render inside <Suspense>. */
export const CurrencySwitcher = lazy(() => import('./currency-switcher'));
