/** Where WeCom sends the browser back to finish a sign-in (docs/spec.md §2, §4). */
export const WX_ENTRY_PATH = '/wxEntry';

export interface AuthorizeTarget {
  origin: string;
  /** Absolute, or a path on this origin (the emulator's `/wecom`). */
  oauthBase: string;
  corpCode: string;
  corpId: string;
  agentCode: string;
  agentId: string;
  redirectPage: string;
  relauchType?: string | undefined;
  state: string;
}

/**
 * WeCom's authorise URL (docs/design.md §4), returning to `/wxEntry` with what docs/spec.md §4 names. `agentid`
 * is the agent whose token exchanges the code, so WeCom checks the redirect against its trusted domain.
 */
export function buildAuthorizeUrl(target: AuthorizeTarget): string {
  const back = new URLSearchParams({
    redirectPage: target.redirectPage,
    corpCode: target.corpCode,
    agentCode: target.agentCode,
    agentId: target.agentId,
    wxAppId: target.corpId,
    needBack: '1',
  });
  if (target.relauchType) back.set('relauchType', target.relauchType);
  const authorize = new URL(`${target.oauthBase.replace(/\/$/, '')}/connect/oauth2/authorize`, target.origin);
  authorize.search = new URLSearchParams({
    appid: target.corpId,
    redirect_uri: `${target.origin}${WX_ENTRY_PATH}?${back.toString()}`,
    response_type: 'code',
    scope: 'snsapi_privateinfo',
    state: target.state,
    agentid: target.agentId,
  }).toString();
  authorize.hash = 'wechat_redirect';
  return authorize.toString();
}

const ORIGIN = /^https?:\/\/[^/\s?#]+$/i;

/**
 * The `Origin` header, else this request's scheme and host. Only the asker receives the URL built from it, and
 * WeCom refuses a redirect outside the agent's trusted domain.
 */
export function requestOrigin(request: { headers: Record<string, unknown>; protocol: string; host: string }): string {
  const origin = request.headers.origin;
  if (typeof origin === 'string' && ORIGIN.test(origin)) return origin;
  return `${request.protocol}://${request.host}`;
}
