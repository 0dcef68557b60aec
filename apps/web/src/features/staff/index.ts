export { loadUserSettings, exchangeRatesQuery, defaultCurrencyQuery, motFoldQuery } from './user-settings';
