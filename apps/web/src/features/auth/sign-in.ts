import { endpoints, ErrorCode } from '../../shared/api/contract';
import { request } from '../../shared/api/request';
import { ApiError } from '../../shared/api/api-error';
import { showToast } from '../../shared/api/toast';
import { useUser } from '../../shared/session/user-store';
import { expectedSignInState, forgetSignInState } from '../../shared/session/sign-in-state';
import { currentLanguage } from '../../shared/i18n/i18n';

const pending = new Map<string, Promise<void>>();

/** A return from WeCom that this tab did not start: someone else's code (login CSRF), or a stale link. */
export class ForeignSignInError extends Error {
  constructor() {
    super('this sign-in was not started in this browser');
    this.name = 'ForeignSignInError';
  }
}

/** Whether a sign-in failed because it was not this browser's own (page check or the server's 080004). */
export const isForeignSignIn = (error: unknown) =>
  error instanceof ForeignSignInError || (error instanceof ApiError && error.code === ErrorCode.LOGIN_STATE_INVALID);

/**
 * Exchanges a WeCom code for a token once (a code is single-use: a repeated call shares the first). A `state` other than the one
 * this tab started with sends nothing (ADR 0011). The app's language goes along, for the manager's WeCom cards (ADR 0042).
 */
export function signInWithCode(code: string, state: string | null): Promise<void> {
  let signIn = pending.get(code);
  if (!signIn) {
    const expected = expectedSignInState();
    signIn =
      !state || (expected !== null && expected !== state)
        ? Promise.reject(new ForeignSignInError())
        : request(endpoints.loginQywx, { code, state, language: currentLanguage() }, { silent: true }).then(
            (result) => {
              forgetSignInState();
              useUser.getState().signIn(result);
            },
            (error: unknown) => {
              // Someone else's link is explained on the page itself; anything else gets the usual toast too.
              if (!isForeignSignIn(error) && error instanceof ApiError) showToast(error.message);
              throw error;
            },
          );
    pending.set(code, signIn);
  }
  return signIn;
}
