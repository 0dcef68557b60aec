export { signInWithCode } from './sign-in';
export { signOutHere, signOutEverywhere } from './sign-out';
export const authPages = {
  wxEntry: () => import('./wx-entry-page'),
};
