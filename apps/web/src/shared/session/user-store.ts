import { create } from 'zustand';
import type { LoginResult } from '@broker/contract';
import { StorageKey } from './storage-keys';
import { isSignedOut, markSignedOut } from './sign-in-state';

/** The login result; before the first sign-in the token and the WeCom userid are '' and the expiry is unknown. */
export type UserState = Omit<LoginResult, 'tokenExpireTime'> & { tokenExpireTime: number | null };

type StoredLogin = Omit<UserState, 'token'>;

export const defaultLogin = (): StoredLogin => ({
  onlineStaff: true,
  bd: true,
  heco: false,
  staffEmail: { email: null },
  tokenExpireTime: null,
  userId: '',
  staffName: '',
});

function readStoredLogin(): StoredLogin {
  try {
    const raw = localStorage.getItem(StorageKey.login);
    return raw ? { ...defaultLogin(), ...(JSON.parse(raw) as Partial<StoredLogin>) } : defaultLogin();
  } catch {
    return defaultLogin();
  }
}

export const readStoredToken = (): string => localStorage.getItem(StorageKey.token) ?? '';

interface UserActions {
  signIn(result: LoginResult): void;
  clearToken(): void;
  /** Drops the token and who was signed in; the app waits for the user to sign in again (`signedOut`, kept for the tab). */
  signOut(): void;
  /** The signed-out user asked to sign in again. */
  leaveSignedOut(): void;
  /** Takes the token another tab (or a WeCom re-open) left in localStorage. */
  adoptToken(token: string): void;
  /** Puts back a token this tab set aside (stored again, with the login beside it untouched). */
  restoreToken(token: string): void;
}

/** The signed-in staff member. Token under `token`, the rest of the login result beside it (docs/spec.md §3, §4). */
export const useUser = create<UserState & UserActions & { signedOut: boolean }>()((set) => ({
  token: readStoredToken(),
  ...readStoredLogin(),
  signedOut: isSignedOut(),
  signIn(result) {
    markSignedOut(false);
    const { token, ...login } = result;
    localStorage.setItem(StorageKey.token, token);
    localStorage.setItem(StorageKey.login, JSON.stringify(login));
    set({ token, ...login, signedOut: false });
  },
  clearToken() {
    localStorage.removeItem(StorageKey.token);
    set({ token: '' });
  },
  signOut() {
    markSignedOut(true);
    localStorage.removeItem(StorageKey.token);
    localStorage.removeItem(StorageKey.login);
    set({ token: '', ...defaultLogin(), signedOut: true });
  },
  leaveSignedOut() {
    markSignedOut(false);
    set({ signedOut: false });
  },
  adoptToken(token) {
    set({ token, ...readStoredLogin() });
  },
  restoreToken(token) {
    localStorage.setItem(StorageKey.token, token);
    set({ token, ...readStoredLogin() });
  },
}));

/** A token is usable until its expiry time; without a known expiry we let the server decide. */
export function hasUsableToken(state: UserState = useUser.getState(), now = Date.now()): boolean {
  if (!state.token) return false;
  return state.tokenExpireTime === null || state.tokenExpireTime > now;
}
