import { APP_HOME_PATH, APP_SIGN_IN_RETURN_PATH, safeAppTarget } from '@broker/contract/app-routes';

/** Where the app lands when nothing else is asked for. */
export const HOME_PATH = APP_HOME_PATH;
export const WX_ENTRY_PATH = APP_SIGN_IN_RETURN_PATH;

/** relauchType values whose return page is the query's redirectPage (docs/spec.md §4). */
const RELAUNCH_WITH_REDIRECT = ['reLogin', 'pushPage'];

/** The page to return to after sign-in: always an own route (safeAppTarget), as `redirectPage` may come from anyone's link. */
export function returnPageOf(location: Pick<Location, 'pathname' | 'search'>): { redirectPage: string; relauchType: string | null } {
  const query = new URLSearchParams(location.search);
  const relauchType = query.get('relauchType');
  const asked = query.get('redirectPage');
  if (asked && (location.pathname === WX_ENTRY_PATH || (relauchType && RELAUNCH_WITH_REDIRECT.includes(relauchType))))
    return { redirectPage: safeAppTarget(asked), relauchType };
  if (location.pathname === WX_ENTRY_PATH || location.pathname === '/') return { redirectPage: HOME_PATH, relauchType };
  return { redirectPage: safeAppTarget(`${location.pathname}${location.search}`), relauchType };
}
