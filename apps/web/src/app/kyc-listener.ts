import { getAppSettings } from '../shared/session/app-settings-store';
import { StorageKey } from '../shared/session/storage-keys';
import type { AppRouter } from './router';

const DEFAULT_KYC_RETURN = '/client/information';

/**
 * SPEC.md §4 "KYC change": another page of the sidebar (the KYC bind flow) writes `kyc`; in the
 * single-chat sidebar this page follows: unbind → /kyc/index with redirectPage, otherwise →
 * redirectPage with the customerId from `kyc_customerId`. redirectPage is the current URL's
 * `redirectPage`, else the client profile.
 */
export function kycTarget(newValue: string | null, currentSearch: string, customerId: string | null): string {
  const redirectPage = new URLSearchParams(currentSearch).get('redirectPage') || DEFAULT_KYC_RETURN;
  if (newValue?.includes('unbind')) return `/kyc/index?${new URLSearchParams({ redirectPage }).toString()}`;
  const separator = redirectPage.includes('?') ? '&' : '?';
  return `${redirectPage}${separator}${new URLSearchParams({ customerId: customerId ?? '' }).toString()}`;
}

export function installKycListener(router: AppRouter, win: Window = window) {
  const onStorage = (event: StorageEvent) => {
    if (event.key !== StorageKey.kyc || getAppSettings().entry !== 'single_chat_tools') return;
    void router.navigate(kycTarget(event.newValue, win.location.search, win.localStorage.getItem(StorageKey.kycCustomerId)));
  };
  win.addEventListener('storage', onStorage);
  return () => win.removeEventListener('storage', onStorage);
}
