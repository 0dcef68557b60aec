import { endpoints } from '../../shared/api/contract';
import { request } from '../../shared/api/request';
import { HOME_PATH, WX_ENTRY_PATH } from '../../shared/api/relogin';
import { useUser } from '../../shared/session/user-store';
import { loadUserSettings } from '../staff';

const pending = new Map<string, Promise<void>>();

/** Exchanges a WeCom code for a token once: a code is single-use, so a repeated call shares the first. */
export function signInWithCode(code: string): Promise<void> {
  let signIn = pending.get(code);
  if (!signIn) {
    signIn = request(endpoints.loginQywx, { code }).then((result) => {
      useUser.getState().signIn(result);
      void loadUserSettings();
    });
    pending.set(code, signIn);
  }
  return signIn;
}

/** Only same-origin paths, never back to /wxEntry itself. */
export function safeRedirectPage(value: string | null): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith(WX_ENTRY_PATH)) return HOME_PATH;
  return value;
}
