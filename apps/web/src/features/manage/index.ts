import { lazyPart } from '../../shared/ui/lazy-part';

/** A page of this feature, once its strings in the current language are in (see manage-locales.ts). */
const withStrings = async <Page>(page: Promise<Page>) => {
  const [module] = await Promise.all([page, import('./manage-locales').then((locales) => locales.manageLocalesReady)]);
  return module;
};

export const managePages = {
  clientManageList: () => withStrings(import('./client-manage-list-page')),
  clientManageSearch: () => withStrings(import('./client-manage-search-page')),
  clientManageFilter: () => withStrings(import('./client-manage-filter-page')),
};

/** Pin/unpin on a client's profile header (ADR 0049); loaded with the page that shows it, not with the app (WhenLoaded). */
export const pinToggle = lazyPart(() => import('./pin-toggle').then((module) => module.PinToggle));
