export { signInWithCode } from './sign-in';
export const authPages = {
  wxEntry: () => import('./wx-entry-page'),
};
