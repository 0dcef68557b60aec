import { safeAppTarget } from '@broker/contract/app-routes';
import { StorageKey } from '../../shared/session/storage-keys';

/** Where a bound contact's customer opens when no redirectPage is asked for. */
export const CLIENT_PROFILE_PATH = '/client/information';
export const KYC_PATH = '/kyc/index';

/** Set when WeCom opened the app at its entry URL `/`; survives the sign-in round trip (same tab). */
export const SIDEBAR_PENDING_KEY = 'kyc:sidebarPending';
export const SIDEBAR_ENTRY_PATH = '/';

/** The customer's profile, or an own-route `redirectPage` (safeAppTarget) with the customerId, which that page checks. */
export function profileTarget(redirectPage: string | null, customerId: string | number): string {
  const [path, query = ''] = safeAppTarget(redirectPage || CLIENT_PROFILE_PATH).split('?');
  const params = new URLSearchParams(query);
  params.set('customerId', String(customerId));
  return safeAppTarget(`${path}?${params.toString()}`);
}

/** docs/spec.md §4 "KYC change": unbind → /kyc/index with redirectPage; bind → redirectPage (else the profile) with `kyc_customerId`. */
export function kycTarget(newValue: string | null, currentSearch: string, customerId: string | null): string {
  const redirectPage = safeAppTarget(new URLSearchParams(currentSearch).get('redirectPage') || CLIENT_PROFILE_PATH);
  if (newValue?.includes('unbind')) return safeAppTarget(`${KYC_PATH}?${new URLSearchParams({ redirectPage }).toString()}`);
  return profileTarget(redirectPage, customerId ?? '');
}

/** Tells the origin's other pages of a bind (storage events): `kyc_customerId` first, read when `kyc` changes; the time keeps it new. */
export function announceBind(customerId: number, storage: Storage = localStorage, now = Date.now()) {
  storage.setItem(StorageKey.kycCustomerId, String(customerId));
  // No contact id in the value: an id may itself contain "unbind".
  storage.setItem(StorageKey.kyc, `bind:${customerId}:${now}`);
}

export function announceUnbind(customerId: number, storage: Storage = localStorage, now = Date.now()) {
  storage.removeItem(StorageKey.kycCustomerId);
  storage.setItem(StorageKey.kyc, `unbind:${customerId}:${now}`);
}
