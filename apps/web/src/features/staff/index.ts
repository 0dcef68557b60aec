export { loadUserSettings, motFoldQuery } from './user-settings';
// A plain export: start-up uses only loadUserSettings, so the bundler leaves the switcher to the pages that show it.
export { default as CurrencySwitcher } from './currency-switcher';
