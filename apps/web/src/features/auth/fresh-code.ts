import { signInCodeOf } from '@broker/contract/app-routes';
import { readStoredToken, useUser } from '../../shared/session/user-store';

/** The token stored when a fresh code arrived, held until the code is settled (ADR 0047). */
let setAside: string | null = null;

/**
 * Start-up, before any request: a return from WeCom carrying a code that passes the shared checker is the newest
 * word on who is signing in, so the stored token (perhaps stale) is set aside and not used: no call made with it
 * can end in "session invalid" and a second trip to WeCom while the code is exchanged. Returns the code, or null
 * (not a sign-in return: nothing is touched).
 */
export function setAsideForFreshCode(location: { pathname: string; search: string }): string | null {
  const code = signInCodeOf(location.pathname, location.search);
  if (code === null) return null;
  const stored = readStoredToken();
  if (stored) {
    setAside = stored;
    useUser.getState().clearToken();
  }
  return code;
}

/**
 * The code was not this browser's (someone else's link, ADR 0011): whoever was signed in stays signed in, so the
 * set-aside token comes back (the page asks before going on with it). True when there was one.
 */
export function restoreSetAsideToken(): boolean {
  const token = setAside;
  setAside = null;
  if (!token || useUser.getState().token) return false;
  useUser.getState().restoreToken(token);
  return true;
}

/**
 * This browser's own sign-in was exchanged (its session replaces the old) or refused: the old token is not put
 * back behind the user's back — on a shared PC the person signing in may not be the one who was signed in.
 */
export function dropSetAsideToken() {
  setAside = null;
}
