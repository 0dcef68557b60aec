import { getAppSettings, useAppSettings } from '../session/app-settings-store';
import { useUser } from '../session/user-store';
import { APP_HOME_PATH, APP_SIGN_IN_RETURN_PATH, safeAppTarget } from '@broker/contract/app-routes';
import { loadCorpConfig } from './corp-config';

/** Where the app lands when nothing else is asked for. */
export const HOME_PATH = APP_HOME_PATH;
export const WX_ENTRY_PATH = APP_SIGN_IN_RETURN_PATH;

/** relauchType values whose return page is the query's redirectPage (SPEC.md §4). */
const RELAUNCH_WITH_REDIRECT = ['reLogin', 'pushPage'];

export interface ReloginTarget {
  origin: string;
  oauthBase: string;
  corpCode: string;
  agentCode: string;
  agentId: string;
  wxAppId: string;
  redirectPage: string;
  relauchType?: string | null;
  state: string;
}

/** WeCom's OAuth authorise URL whose return address is `/wxEntry` carrying everything needed to finish sign-in. */
export function buildReloginUrl(target: ReloginTarget): string {
  const back = new URLSearchParams({
    redirectPage: target.redirectPage,
    corpCode: target.corpCode,
    agentCode: target.agentCode,
    agentId: target.agentId,
    wxAppId: target.wxAppId,
    needBack: '1',
  });
  if (target.relauchType) back.set('relauchType', target.relauchType);
  const redirectUri = `${target.origin}${WX_ENTRY_PATH}?${back.toString()}`;
  const authorize = new URL(`${target.oauthBase.replace(/\/$/, '')}/connect/oauth2/authorize`, target.origin);
  authorize.search = new URLSearchParams({
    appid: target.wxAppId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'snsapi_privateinfo',
    state: target.state,
    agentid: target.agentId,
  }).toString();
  authorize.hash = 'wechat_redirect';
  return authorize.toString();
}

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

/** Lets tests watch where the browser would be sent. */
export function setReloginNavigator(navigate: (url: string) => void) {
  navigateAway = navigate;
}

export function resetRelogin() {
  inFlight = null;
}

export function isReloginInFlight() {
  return inFlight !== null;
}

/**
 * Drops the token and sends the browser to the OAuth page. Only one at a time: every caller while
 * a re-login is under way shares it, so ten calls failing together send the user away once.
 */
export function startRelogin(): Promise<void> {
  if (inFlight) return inFlight;
  inFlight = (async () => {
    useUser.getState().clearToken();
    const settings = getAppSettings();
    const config = await loadCorpConfig(settings.corpCode);
    const agentId = settings.agentId || config.agents.find((agent) => agent.agentCode === settings.agentCode)?.agentId || '';
    const wxAppId = settings.wxAppId || config.corpId;
    useAppSettings.getState().update({ agentId, wxAppId });
    const { redirectPage, relauchType } = returnPageOf(window.location);
    navigateAway(
      buildReloginUrl({
        origin: window.location.origin,
        oauthBase: config.oauthBase,
        corpCode: settings.corpCode,
        agentCode: settings.agentCode,
        agentId,
        wxAppId,
        redirectPage,
        relauchType,
        state: Math.random().toString(36).slice(2, 10),
      }),
    );
  })().catch((error: unknown) => {
    inFlight = null;
    throw error;
  });
  return inFlight;
}
