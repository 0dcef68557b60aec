export { signInWithCode } from './sign-in';
export { signOutHere, signOutEverywhere } from './sign-out';
export { HOME_PATH, WX_ENTRY_PATH, returnPageOf, startRelogin, installSessionRecovery } from './relogin';
export const authPages = {
  wxEntry: () => import('./wx-entry-page'),
};
