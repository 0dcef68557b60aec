import { getAppSettings } from '../../shared/session/app-settings-store';
import { useUser } from '../../shared/session/user-store';
import { APP_HOME_PATH, APP_SIGN_IN_RETURN_PATH, safeAppTarget } from '@broker/contract/app-routes';
import { rememberSignInState } from '../../shared/session/sign-in-state';
import { endpoints } from '../../shared/api/contract';
import { queryClient } from '../../shared/api/query-client';
import { request } from '../../shared/api/request';
import { onSessionInvalid } from '../../shared/api/session-events';

/** Where the app lands when nothing else is asked for. */
export const HOME_PATH = APP_HOME_PATH;
export const WX_ENTRY_PATH = APP_SIGN_IN_RETURN_PATH;

/** relauchType values whose return page is the query's redirectPage (SPEC.md §4). */
const RELAUNCH_WITH_REDIRECT = ['reLogin', 'pushPage'];
/** What the server accepts as relauchType; anything else is not carried back. */
const RELAUNCH_TYPE = /^[A-Za-z]{1,32}$/;

/**
 * The page to come back to after signing in, from where the user is now: always one of this app's own
 * routes (safeAppTarget), since a `redirectPage` in the query may come from anyone's link.
 */
export function returnPageOf(location: Pick<Location, 'pathname' | 'search'>): { redirectPage: string; relauchType: string | null } {
  const query = new URLSearchParams(location.search);
  const relauchType = query.get('relauchType');
  const asked = query.get('redirectPage');
  if (asked && (location.pathname === WX_ENTRY_PATH || (relauchType && RELAUNCH_WITH_REDIRECT.includes(relauchType)))) {
    return { redirectPage: safeAppTarget(asked), relauchType };
  }
  if (location.pathname === WX_ENTRY_PATH || location.pathname === '/') return { redirectPage: HOME_PATH, relauchType };
  return { redirectPage: safeAppTarget(`${location.pathname}${location.search}`), relauchType };
}

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

export function isReloginInFlight() {
  return inFlight !== null;
}

/**
 * A browser that still holds its session cookie gets a new token without leaving the page (WeCom's
 * Mac sidebar empties localStorage on every load, ADR 0012). True when it did.
 */
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
 * Drops the token and signs in again: resumes this browser's session if its cookie still holds one,
 * else asks the server to begin a sign-in (it records the agent this page was opened from and sets
 * the sign-in cookie) and sends the browser to WeCom's authorise page. Only one at a time: every
 * caller while a re-login is under way shares it, so ten calls failing together send the user away once.
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

/** The auth feature's answer to the request layer's "session invalid": sign in again. Returns the unsubscribe. */
export function installSessionRecovery(): () => void {
  return onSessionInvalid(() => void startRelogin().catch(() => undefined));
}
