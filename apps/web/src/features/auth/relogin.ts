import { getAppSettings } from '../../shared/session/app-settings-store';
import { useUser } from '../../shared/session/user-store';
import { returnPageOf } from './return-page';
import { rememberSignInState } from '../../shared/session/sign-in-state';
import { endpoints } from '../../shared/api/contract';
import { queryClient } from '../../shared/api/query-client';
import { request } from '../../shared/api/request';

/** What the server accepts as relauchType; anything else is not carried back. */
const RELAUNCH_TYPE = /^[A-Za-z]{1,32}$/;

let navigateAway: (url: string) => void = (url) => window.location.assign(url);
let inFlight: Promise<void> | null = null;
/** A browser's session is resumed at most once per page: a second loss goes through WeCom. */
let resumeTried = false;

/** Lets tests watch where the browser would be sent. */
export function setReloginNavigator(navigate: (url: string) => void) {
  navigateAway = navigate;
}

export function resetRelogin() {
  inFlight = null;
  resumeTried = false;
}

/** A session cookie still held gets a new token without leaving the page (WeCom's Mac sidebar empties localStorage, ADR 0012). */
async function resumeSession(): Promise<boolean> {
  if (resumeTried) return false;
  resumeTried = true;
  try {
    const result = await request(endpoints.resumeSession, {}, { silent: true });
    useUser.getState().signIn(result);
    // Whatever failed for want of a session asks again.
    void queryClient.invalidateQueries();
    return true;
  } catch {
    return false;
  }
}

/**
 * Drops the token and signs in again: resumes the cookie's session, else begins a sign-in on the server and goes to WeCom's
 * authorise page. Callers meanwhile share the one under way, so many failing calls send the user away once.
 */
export function startRelogin(): Promise<void> {
  if (inFlight) return inFlight;
  // Signed out on purpose: a late answer must not sign anyone in; the user asks (shell's signed-out screen).
  if (useUser.getState().signedOut) return Promise.resolve();
  const running = (async () => {
    useUser.getState().clearToken();
    if (await resumeSession()) {
      inFlight = null;
      return;
    }
    const settings = getAppSettings();
    const { redirectPage, relauchType } = returnPageOf(window.location);
    const started = await request(endpoints.startSignIn, {
      agentCode: settings.agentCode,
      redirectPage,
      ...(relauchType && RELAUNCH_TYPE.test(relauchType) ? { relauchType } : {}),
    });
    rememberSignInState(started.state);
    navigateAway(started.authorizeUrl);
  })().catch((error: unknown) => {
    inFlight = null;
    throw error;
  });
  inFlight = running;
  return running;
}
