export { setAsideForFreshCode } from './fresh-code';
export { signOutHere, signOutEverywhere } from './sign-out';
export { HOME_PATH, WX_ENTRY_PATH, returnPageOf } from './return-page';
export { startRelogin, installSessionRecovery } from './session-recovery';
export const authPages = {
  wxEntry: () => import('./wx-entry-page'),
};
