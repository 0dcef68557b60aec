import type { ComponentType } from 'react';
import { authPages, HOME_PATH } from '../features/auth';
import { clientPages } from '../features/client';
import { managePages } from '../features/manage';
import { kycPages } from '../features/kyc';
import { motPages } from '../features/mot';
import { AUDIT_TRAIL_PATH, auditPages } from '../features/audit';
import { CONTACT_PATHS, contactPages } from '../features/contact';
import type { Messages } from '../shared/i18n/locales/zh-CN';

/** Each page's chunk, by the name of its route. */
const pages = { ...managePages, ...clientPages, ...kycPages, ...motPages, ...auditPages, ...contactPages, ...authPages };

export type RouteName = keyof typeof pages | 'notFound';

export type TitleKey = `title.${keyof Messages['title']}`;

export interface PageRoute {
  path: string;
  name: keyof typeof pages;
  /** No key: the default title (the product name). */
  titleKey?: TitleKey;
  /** docs/spec.md §2 keep-alive: kept (hidden, state and scroll intact) while the user is on one of these; `always`: whatever follows. */
  keepAliveFor?: readonly RouteName[] | 'always';
  /** Entered only straight from this route; otherwise replaced by the client list. */
  enterOnlyFrom?: RouteName;
  load: () => Promise<{ default: ComponentType }>;
}

export interface RedirectRoute {
  path: string;
  redirectTo: string;
}

const THREE_CLIENT_PAGES = ['clientInformation', 'clientTransaction', 'clientMoneyRecord'] as const;

export const redirectRoutes: readonly RedirectRoute[] = [
  { path: '/', redirectTo: HOME_PATH },
  { path: '/client', redirectTo: '/client/information' },
  { path: '/client/manage', redirectTo: HOME_PATH },
  { path: '/mot', redirectTo: '/mot/home' },
];

/** docs/spec.md §2, row by row. */
const routes: readonly Omit<PageRoute, 'load'>[] = [
  {
    path: '/client/manage/list',
    name: 'clientManageList',
    titleKey: 'title.clientManage',
    keepAliveFor: 'always',
  },
  {
    path: '/client/manage/search',
    name: 'clientManageSearch',
    titleKey: 'title.clientManage',
    keepAliveFor: ['clientInformation'],
  },
  {
    path: '/client/manage/filter',
    name: 'clientManageFilter',
    titleKey: 'title.clientManage',
    enterOnlyFrom: 'clientManageList',
  },
  {
    path: '/client/information',
    name: 'clientInformation',
    titleKey: 'title.clientInformation',
    keepAliveFor: ['clientHoldingStock', 'clientTransaction', 'clientMoneyRecord', 'clientTransferStock'],
  },
  {
    path: '/client/information/accountDetail/holdingStock',
    name: 'clientHoldingStock',
    titleKey: 'title.clientHoldingStock',
  },
  {
    path: '/client/information/accountDetail/transaction',
    name: 'clientTransaction',
    titleKey: 'title.clientTransaction',
  },
  {
    path: '/client/information/moneyRecord/moneyRecord',
    name: 'clientMoneyRecord',
    titleKey: 'title.clientMoneyRecord',
  },
  {
    path: '/client/information/moneyRecord/transferStock',
    name: 'clientTransferStock',
    titleKey: 'title.clientTransferStock',
  },
  { path: '/client/edit', name: 'clientEdit', titleKey: 'title.clientInformation' },
  { path: '/kyc/index', name: 'kycIndex', titleKey: 'title.kycIndex' },
  {
    path: '/mot/home',
    name: 'motHome',
    titleKey: 'title.motHome',
    keepAliveFor: ['motHistorySearch', 'motEventDetail', 'clientInformation', 'clientTransaction', 'clientMoneyRecord'],
  },
  {
    path: '/mot/eventDetail',
    name: 'motEventDetail',
    titleKey: 'title.motEventDetail',
    keepAliveFor: THREE_CLIENT_PAGES,
  },
  {
    path: '/mot/singleClient',
    name: 'motSingleClient',
    titleKey: 'title.motSingleClient',
    keepAliveFor: THREE_CLIENT_PAGES,
  },
  {
    path: '/mot/historySearch',
    name: 'motHistorySearch',
    titleKey: 'title.motHistorySearch',
    keepAliveFor: THREE_CLIENT_PAGES,
  },
  { path: AUDIT_TRAIL_PATH, name: 'auditTrail', titleKey: 'title.auditTrail' },
  { path: CONTACT_PATHS.new, name: 'contactNew', titleKey: 'title.contactNew' },
  { path: CONTACT_PATHS.record, name: 'contactRecord', titleKey: 'title.contactRecord' },
  {
    path: CONTACT_PATHS.log,
    name: 'contactLog',
    titleKey: 'title.contactLog',
    // Opening a record and coming back keeps the log where it was scrolled to (pages loaded, filter).
    keepAliveFor: ['contactRecord'],
  },
  { path: CONTACT_PATHS.print, name: 'contactPrint', titleKey: 'title.contactPrint' },
  { path: '/wxEntry', name: 'wxEntry' },
];

export const pageRoutes: readonly PageRoute[] = routes.map((route) => ({ ...route, load: pages[route.name] }));

export const routeByName = new Map<RouteName, PageRoute>(pageRoutes.map((route) => [route.name, route]));

/** Whether a page that is alive (shown or kept) stays alive once the user is on `destination`. */
export function staysAlive(page: RouteName, destination: RouteName): boolean {
  const keep = routeByName.get(page)?.keepAliveFor;
  if (!keep) return false;
  return keep === 'always' || keep.includes(destination);
}
