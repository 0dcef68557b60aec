import { lazyPart } from '../../shared/ui/lazy-part';

export const managePages = {
  clientManageList: () => import('./client-manage-list-page'),
  clientManageSearch: () => import('./client-manage-search-page'),
  clientManageFilter: () => import('./client-manage-filter-page'),
};

/** Pin/unpin on a client's profile header (ADR 0049); loaded with the page that shows it, not with the app (WhenLoaded). */
export const pinToggle = lazyPart(() => import('./pin-toggle').then((module) => module.PinToggle));
