export const motPages = {
  motHome: () => import('./mot-home-page'),
  motEventDetail: () => import('./mot-event-detail-page'),
  motSingleClient: () => import('./mot-single-client-page'),
  motHistorySearch: () => import('./mot-history-search-page'),
};

/** The MOT rules' names (`mot.rule.<rule>`), for other features that name an event's rule. */
export { registerMotRuleNames } from './mot-rule-locales';
