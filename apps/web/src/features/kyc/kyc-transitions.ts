import { safeAppTarget } from '@broker/contract/app-routes';
import { StorageKey } from '../../shared/session/storage-keys';

/** Where a bound contact's customer opens when no redirectPage is asked for. */
export const CLIENT_PROFILE_PATH = '/client/information';
export const KYC_PATH = '/kyc/index';

/** Set when WeCom opened the app at its entry URL `/`; survives the sign-in round trip (same tab). */
export const SIDEBAR_PENDING_KEY = 'kyc:sidebarPending';
export const SIDEBAR_ENTRY_PATH = '/';

/**
 * The client profile of a customer, or `redirectPage` with the customerId when the URL asked for one.
 * redirectPage comes from the URL: only an own route is followed (safeAppTarget); the customerId is
 * data in the query (it may come from storage), which the page checks.
 */
export function profileTarget(redirectPage: string | null, customerId: string | number): string {
  const [path, query = ''] = safeAppTarget(redirectPage || CLIENT_PROFILE_PATH).split('?');
  const params = new URLSearchParams(query);
  params.set('customerId', String(customerId));
  return safeAppTarget(`${path}?${params.toString()}`);
}

/**
 * docs/spec.md §4 "KYC change": where a single-chat sidebar page goes when another page of the same origin
 * changed `kyc`: unbind → /kyc/index with redirectPage; otherwise → redirectPage with the customerId
 * from `kyc_customerId`. redirectPage is the current URL's `redirectPage`, else the client profile.
 */
export function kycTarget(newValue: string | null, currentSearch: string, customerId: string | null): string {
  const redirectPage = safeAppTarget(new URLSearchParams(currentSearch).get('redirectPage') || CLIENT_PROFILE_PATH);
  if (newValue?.includes('unbind')) return safeAppTarget(`${KYC_PATH}?${new URLSearchParams({ redirectPage }).toString()}`);
  return profileTarget(redirectPage, customerId ?? '');
}

/**
 * Tells the other pages of this origin (storage events fire in every page but the writer) that a
 * contact was bound. `kyc_customerId` first: the listeners read it when `kyc` changes. The time keeps
 * the value new even when the same contact is bound twice in a row.
 */
export function announceBind(customerId: number, storage: Storage = localStorage, now = Date.now()) {
  storage.setItem(StorageKey.kycCustomerId, String(customerId));
  // No contact id in the value: an id may itself contain "unbind".
  storage.setItem(StorageKey.kyc, `bind:${customerId}:${now}`);
}

export function announceUnbind(customerId: number, storage: Storage = localStorage, now = Date.now()) {
  storage.removeItem(StorageKey.kycCustomerId);
  storage.setItem(StorageKey.kyc, `unbind:${customerId}:${now}`);
}
