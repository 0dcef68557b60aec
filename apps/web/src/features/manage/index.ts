export const managePages = {
  clientManageList: () => import('./client-manage-list-page'),
  clientManageSearch: () => import('./client-manage-search-page'),
  clientManageFilter: () => import('./client-manage-filter-page'),
};
