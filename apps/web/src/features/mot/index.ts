export const motPages = {
  motHome: () => import('./mot-home-page'),
  motEventDetail: () => import('./mot-event-detail-page'),
  motSingleClient: () => import('./mot-single-client-page'),
  motHistorySearch: () => import('./mot-history-search-page'),
};

/**
 * The MOT rules' names (`mot.rule.<rule>`), for other features that name an event's rule. Loaded with the
 * feature that asks (this index is in the first screen's entry through the route table; the names are ~2.7 kB
 * gzip that the client list never shows).
 */
export const registerMotRuleNames = () => import('./mot-rule-locales').then((module) => module.registerMotRuleNames());
