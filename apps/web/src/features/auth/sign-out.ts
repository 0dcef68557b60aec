import { endpoints, RELOGIN_CODES } from '../../shared/api/contract';
import { request } from '../../shared/api/request';
import { ApiError } from '../../shared/api/api-error';
import { queryClient } from '../../shared/api/query-client';
import { forgetDrafts } from '../../shared/drafts/install';
import { forgetSignInState } from '../../shared/session/sign-in-state';
import { useUser } from '../../shared/session/user-store';

/**
 * Ends the session on the server, then here: the token, who was signed in, every customer figure
 * held in memory and every draft or saved filter typed here (ADR 0013) go, and the app waits for the user to ask before signing in again. A
 * session the server already calls over (080000/080001) counts as ended; any other failure
 * rejects and nothing changes here, so the user is never told "signed out" while still signed in.
 */
async function endSession(endpoint: typeof endpoints.signOut | typeof endpoints.signOutEverywhere): Promise<void> {
  try {
    await request(endpoint, {}, { silent: true, relogin: false });
  } catch (error) {
    if (!(error instanceof ApiError && RELOGIN_CODES.includes(error.code))) throw error;
  }
  forgetSignInState();
  forgetDrafts();
  queryClient.clear();
  useUser.getState().signOut();
}

/** Sign out on this device: every session of this browser ends, and its session cookie is cleared. */
export const signOutHere = () => endSession(endpoints.signOut);

/** Sign out everywhere: every session of this staff member ends, on every phone and computer. */
export const signOutEverywhere = () => endSession(endpoints.signOutEverywhere);
