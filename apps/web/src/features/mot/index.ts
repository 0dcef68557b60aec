export const motPages = {
  motHome: () => import('./mot-home-page'),
  motEventDetail: () => import('./mot-event-detail-page'),
  motSingleClient: () => import('./mot-single-client-page'),
  motHistorySearch: () => import('./mot-history-search-page'),
};
