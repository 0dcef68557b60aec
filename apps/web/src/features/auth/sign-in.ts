import { endpoints } from '../../shared/api/contract';
import { request } from '../../shared/api/request';
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
