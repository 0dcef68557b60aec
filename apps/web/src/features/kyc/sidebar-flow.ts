import { createElement } from 'react';
import { queryClient } from '../../shared/api/query-client';
import { i18n } from '../../shared/i18n/i18n';
import { useAppSettings } from '../../shared/session/app-settings-store';
import { hasUsableToken, useUser } from '../../shared/session/user-store';
import { getCurrentExternalUserId, getWeComEntry, isWeComBrowser, WeComError } from '../../shared/wecom/wecom-sdk';
import { kycStatusQuery } from './kyc-api';
import { KycErrorContent } from './kyc-error-content';
import './sidebar-flow.css';
import { KYC_PATH, profileTarget, SIDEBAR_ENTRY_PATH, SIDEBAR_PENDING_KEY } from './kyc-transitions';
import { registerKycLocales } from './locales';

export { SIDEBAR_PENDING_KEY };
registerKycLocales();

/** What the flow needs of the app's router (app/router.tsx). */
export interface SidebarRouter {
  readonly state: { initialized: boolean; navigation: { state: string }; location: { pathname: string; key: string } };
  subscribe(listener: () => void): () => void;
  navigate(to: string, options?: { replace?: boolean }): Promise<void>;
}

const SIGN_IN_RETURN_PATH = '/wxEntry';

/** Signed in, and the router at rest on a real page: the page URL (which gets signed) stays put now. */
const isSettled = (router: SidebarRouter) =>
  router.state.initialized &&
  router.state.navigation.state === 'idle' &&
  router.state.location.pathname !== SIGN_IN_RETURN_PATH &&
  hasUsableToken();

/** While the landing page is being decided, the page underneath (the home list) is covered by a spinner. */
const RESOLVING_CLASS = 'ba-kyc-resolving';

async function showWeComFailure(error: unknown) {
  document.documentElement.classList.remove(RESOLVING_CLASS);
  const { default: Dialog } = await import('../../shared/ui/antd-dialog');
  await Dialog.alert({
    title: i18n.t('kyc.wecomFailed.title'),
    content: createElement(KycErrorContent, { error, t: (key, options) => i18n.t(key, options) }),
    confirmText: i18n.t('kyc.wecomFailed.ok'),
  });
}

/**
 * In WeCom the entry comes from `ww.getContext()` (the URL's `entry` stays the fallback elsewhere).
 * When WeCom opened the app from a single chat's toolbar, the chat contact decides the first page:
 * bound to one of my customers → that customer's profile; otherwise → /kyc/index to bind.
 */
export async function runSidebarFlow(router: SidebarRouter, storage: Storage = sessionStorage) {
  const pending = storage.getItem(SIDEBAR_PENDING_KEY) === '1';
  storage.removeItem(SIDEBAR_PENDING_KEY);
  const startedAt = router.state.location.key;
  let entry;
  try {
    entry = await getWeComEntry();
  } catch (error) {
    // Without WeCom's answer the entry is unknown: say so rather than leave the sidebar on a wrong page.
    if (pending) await showWeComFailure(error);
    return;
  }
  useAppSettings.getState().update({ entry });
  if (!pending || entry !== 'single_chat_tools') return;
  let target = KYC_PATH;
  try {
    const status = await queryClient.fetchQuery(kycStatusQuery(await getCurrentExternalUserId()));
    if (status.bound && status.ownCustomer && status.binding) target = profileTarget(null, status.binding.customerId);
  } catch (error) {
    // The KYC page explains a failing lookup and offers a retry; a refused WeCom call gets a dialog too.
    if (error instanceof WeComError) void showWeComFailure(error);
  }
  // The user may have moved on while WeCom and the server answered; then leave them where they are.
  if (router.state.location.key === startedAt) await router.navigate(target, { replace: true });
}

/** Starts the sidebar flow once signed in and settled; outside WeCom's browser it does nothing. */
export function installSidebarFlow(router: SidebarRouter, win: Window = window): () => void {
  if (!isWeComBrowser(win.navigator.userAgent)) return () => undefined;
  if (win.location.pathname === SIDEBAR_ENTRY_PATH) win.sessionStorage.setItem(SIDEBAR_PENDING_KEY, '1');
  let started = false;
  const unsubscribers: (() => void)[] = [];
  const stop = () => unsubscribers.splice(0).forEach((unsubscribe) => unsubscribe());
  const check = () => {
    if (started || !isSettled(router)) return;
    started = true;
    stop();
    const root = win.document.documentElement;
    if (win.sessionStorage.getItem(SIDEBAR_PENDING_KEY) === '1') root.classList.add(RESOLVING_CLASS);
    void runSidebarFlow(router, win.sessionStorage).finally(() => root.classList.remove(RESOLVING_CLASS));
  };
  unsubscribers.push(router.subscribe(check), useUser.subscribe(check));
  check();
  return stop;
}
