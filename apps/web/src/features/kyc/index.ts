import type { SidebarRouter } from './sidebar-flow';
import { SIDEBAR_ENTRY_PATH, SIDEBAR_PENDING_KEY } from './kyc-transitions';
import { isWeComBrowser } from '../../shared/wecom/wecom-sdk';

export const kycPages = {
  kycIndex: () => import('./kyc-index-page'),
};

/** In WeCom's browser only: notes whether WeCom opened the entry URL (the router redirects away), then loads the sidebar flow. */
export function installSidebarFlow(router: SidebarRouter, win: Window = window) {
  if (!isWeComBrowser(win.navigator.userAgent)) return;
  if (win.location.pathname === SIDEBAR_ENTRY_PATH) win.sessionStorage.setItem(SIDEBAR_PENDING_KEY, '1');
  void import('./sidebar-flow').then((flow) => flow.installSidebarFlow(router, win));
}

export { kycTarget } from './kyc-transitions';
