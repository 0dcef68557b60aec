import { createElement, type ReactNode } from 'react';
import { APP_SIGN_IN_RETURN_PATH } from '@broker/contract/app-routes';
import { queryClient } from '../../shared/api/query-client';
import { i18n } from '../../shared/i18n/i18n';
import { isContactEntry, useAppSettings, type Entry } from '../../shared/session/app-settings-store';
import { hasUsableToken, useUser } from '../../shared/session/user-store';
import { getCurrentExternalUserId, getWeComEntry, WeComError } from '../../shared/wecom/wecom-sdk';
import { kycStatusQuery } from './kyc-api';
import { KycErrorContent } from './kyc-error-content';
import './sidebar-flow.css';
import { KYC_PATH, profileTarget, SIDEBAR_PENDING_KEY } from './kyc-transitions';
import './locales';

/** What the flow needs of the app's router (app/router.tsx). */
export interface SidebarRouter {
  readonly state: { initialized: boolean; navigation: { state: string }; location: { pathname: string; key: string } };
  subscribe(listener: () => void): () => void;
  navigate(to: string, options?: { replace?: boolean }): Promise<void>;
}

/** Signed in, and the router at rest on a real page: the page URL (which gets signed) stays put now. */
const isSettled = (router: SidebarRouter) =>
  router.state.initialized &&
  router.state.navigation.state === 'idle' &&
  router.state.location.pathname !== APP_SIGN_IN_RETURN_PATH &&
  hasUsableToken();

/** While the landing page is being decided, the page underneath (the home list) is covered by a spinner. */
const RESOLVING_CLASS = 'ba-kyc-resolving';

/** A dialog over the page (the spinner gone): what went wrong, or why there is nobody to look up. */
async function alertOver(title: string, content: ReactNode) {
  document.documentElement.classList.remove(RESOLVING_CLASS);
  const { default: Dialog } = await import('../../shared/ui/antd-dialog');
  await Dialog.alert({
    title,
    content,
    confirmText: i18n.t('kyc.wecomFailed.ok'),
  });
}

const showWeComFailure = (error: unknown) =>
  alertOver(i18n.t('kyc.wecomFailed.title'), createElement(KycErrorContent, { error, t: i18n.t }));

/** Where the customer WeCom opened the page for leads: bound to one of mine → their profile; otherwise → KYC. */
async function landingFor(externalUserId: string): Promise<string> {
  const status = await queryClient.fetchQuery(kycStatusQuery(externalUserId));
  return status.bound && status.ownCustomer && status.binding ? profileTarget(null, status.binding.customerId) : KYC_PATH;
}

const GROUP_ENTRIES: readonly Entry[] = ['group_chat_tools', 'chain_group_chat_tools', 'internal_group_chat_board'];

/** From a group chat, the chat attachment bar, …: a clear word instead of a page that cannot find its customer. */
const showEntryNotice = (entry: Entry) =>
  alertOver(
    i18n.t(`kyc.entryNotice.${GROUP_ENTRIES.includes(entry) ? 'group' : 'other'}Title`),
    createElement('p', { className: 'ba-sidebar-notice', 'data-testid': 'entry-notice' }, i18n.t('kyc.entryNotice.body')),
  );

/** What WeCom last said the page was opened for; the sidebar follows when that changes. */
export interface SidebarContext {
  entry: Entry;
  /** The customer's external userId in a contact entry; null elsewhere (or when WeCom could not say). */
  contact: string | null;
}

/**
 * In WeCom the entry comes from `ww.getContext()`. A page opened for a customer (chat toolbar, contact card) lands on their
 * profile if bound to one of mine, else on /kyc/index to bind; other entries with nobody to look up get a notice.
 */
export async function runSidebarFlow(router: SidebarRouter, storage: Storage = sessionStorage): Promise<SidebarContext | null> {
  const pending = storage.getItem(SIDEBAR_PENDING_KEY) === '1';
  storage.removeItem(SIDEBAR_PENDING_KEY);
  const startedAt = router.state.location.key;
  let entry;
  try {
    entry = await getWeComEntry();
  } catch (error) {
    // Without WeCom's answer the entry is unknown: say so rather than leave the sidebar on a wrong page.
    if (pending) await showWeComFailure(error);
    return null;
  }
  useAppSettings.getState().update({ entry });
  if (!isContactEntry(entry)) {
    if (pending && entry !== 'normal') void showEntryNotice(entry);
    return { entry, contact: null };
  }
  if (!pending) return { entry, contact: await getCurrentExternalUserId().catch(() => null) };
  let target = KYC_PATH;
  let contact: string | null = null;
  try {
    contact = await getCurrentExternalUserId();
    target = await landingFor(contact);
  } catch (error) {
    // The KYC page explains a failing lookup and offers a retry; a refused WeCom call gets a dialog too.
    if (error instanceof WeComError) void showWeComFailure(error);
  }
  // The user may have moved on while WeCom and the server answered; then leave them where they are.
  if (router.state.location.key === startedAt) await router.navigate(target, { replace: true });
  return { entry, contact };
}

/** Desktop WeCom reuses one sidebar for chat after chat: shown again, it asks who it is for now, so no previous customer lingers. */
export async function followSidebarContext(router: SidebarRouter, shown: SidebarContext | null): Promise<SidebarContext | null> {
  let entry;
  try {
    entry = await getWeComEntry();
  } catch {
    return shown;
  }
  useAppSettings.getState().update({ entry });
  if (!isContactEntry(entry)) return { entry, contact: null };
  let contact: string;
  try {
    contact = await getCurrentExternalUserId();
  } catch (error) {
    if (error instanceof WeComError) void showWeComFailure(error);
    return shown;
  }
  if (shown && shown.entry === entry && shown.contact === contact) return shown;
  // What the pages know of the previous customer's binding (and the KYC page's contact) is stale now.
  await queryClient.invalidateQueries({ queryKey: ['kyc'] });
  let target = KYC_PATH;
  try {
    target = await landingFor(contact);
  } catch {
    // The KYC page explains a failing lookup and offers a retry.
  }
  await router.navigate(target, { replace: true });
  return { entry, contact };
}

/** Starts the sidebar flow once signed in and settled (index.ts loads it in WeCom's browser only). */
export function installSidebarFlow(router: SidebarRouter, win: Window = window): () => void {
  let started = false;
  let shown: SidebarContext | null = null;
  let following: Promise<void> | null = null;
  const unsubscribers: (() => void)[] = [];
  const stop = () => unsubscribers.splice(0).forEach((unsubscribe) => unsubscribe());
  const track = (context: Promise<SidebarContext | null>, done?: () => void) => {
    following = context
      .then((next) => {
        shown = next;
      })
      .finally(() => {
        following = null;
        done?.();
      });
  };
  const follow = () => {
    if (win.document.visibilityState === 'visible' && !following) track(followSidebarContext(router, shown));
  };
  const onPageShow = (event: PageTransitionEvent) => {
    if (event.persisted) follow();
  };
  const check = () => {
    if (started || !isSettled(router)) return;
    started = true;
    stop();
    const root = win.document.documentElement;
    if (win.sessionStorage.getItem(SIDEBAR_PENDING_KEY) === '1') root.classList.add(RESOLVING_CLASS);
    track(runSidebarFlow(router, win.sessionStorage), () => root.classList.remove(RESOLVING_CLASS));
    const listening = new AbortController();
    win.document.addEventListener('visibilitychange', follow, { signal: listening.signal });
    win.addEventListener('pageshow', onPageShow, { signal: listening.signal });
    unsubscribers.push(() => listening.abort());
  };
  unsubscribers.push(router.subscribe(check), useUser.subscribe(check));
  check();
  return stop;
}
