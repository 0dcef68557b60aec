import { StorageKey } from './storage-keys';

/**
 * The page's half of the login-CSRF check (ADR 0011): the state of the sign-in this tab started (sessionStorage: one tab, one
 * sign-in). The server checks its cookie; the page refuses a return it did not ask for, so it never stores such a token.
 */
const read = (key: string) => {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
};
const write = (key: string, value: string | null) => {
  try {
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, value);
  } catch {
    // Storage refused (private mode): the server's cookie check still stands.
  }
};

export const rememberSignInState = (state: string) => write(StorageKey.signInState, state);

/** The state this tab is waiting for, or null when it started none (or its storage was emptied). */
export const expectedSignInState = () => read(StorageKey.signInState);

export const forgetSignInState = () => write(StorageKey.signInState, null);

/** The user signed out here: the app waits for them to ask before signing in again. */
export const markSignedOut = (signedOut: boolean) => write(StorageKey.signedOut, signedOut ? '1' : null);

export const isSignedOut = () => read(StorageKey.signedOut) === '1';
