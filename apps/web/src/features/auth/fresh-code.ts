import { signInCodeOf } from '@broker/contract/app-routes';
import { readStoredToken, useUser } from '../../shared/session/user-store';

/** The token stored when a fresh code arrived, held until the code is settled (ADR 0047). */
let setAside: string | null = null;

/**
 * Start-up, before any request: a WeCom return with a code that passes the shared checker sets the stored (perhaps stale)
 * token aside, so no call ends in "session invalid" and a second WeCom trip meanwhile. Returns the code, or null.
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

/** Someone else's code (ADR 0011): whoever was signed in stays, so the set-aside token comes back. True when there was one. */
export function restoreSetAsideToken(): boolean {
  const token = setAside;
  setAside = null;
  if (!token || useUser.getState().token) return false;
  useUser.getState().restoreToken(token);
  return true;
}

/** This browser's own code was exchanged or refused: on a shared PC the old token is not put back behind the new user's back. */
export function dropSetAsideToken() {
  setAside = null;
}
