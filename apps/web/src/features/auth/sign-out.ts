import { endpoints, RELOGIN_CODES } from '../../shared/api/contract';
import { request } from '../../shared/api/request';
import { ApiError } from '../../shared/api/api-error';
import { queryClient } from '../../shared/api/query-client';
import { forgetDrafts } from '../../shared/drafts/install';
import { forgetSignInState } from '../../shared/session/sign-in-state';
import { useUser } from '../../shared/session/user-store';

/**
 * Ends the session on the server, then here (token, who, customer figures in memory, drafts and saved filters: ADR 0013).
 * A session the server already calls over counts as ended; any other failure changes nothing (never "signed out" while signed in).
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
