import { getAppSettings } from '../shared/session/app-settings-store';
import { StorageKey } from '../shared/session/storage-keys';
import { queryClient } from '../shared/api/query-client';
import { kycTarget } from '../features/kyc';
import type { createAppRouter } from './router';

/** docs/spec.md §4 "KYC change": the single-chat sidebar follows a bind made by another page (kycTarget); bindings known here go stale. */
export function installKycListener(router: ReturnType<typeof createAppRouter>) {
  window.addEventListener('storage', (event) => {
    if (event.key !== StorageKey.kyc || getAppSettings().entry !== 'single_chat_tools') return;
    void queryClient.invalidateQueries({ queryKey: ['kyc'] });
    void router.navigate(kycTarget(event.newValue, window.location.search, window.localStorage.getItem(StorageKey.kycCustomerId)));
  });
}
