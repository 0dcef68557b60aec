/*
 * The web app's routes and the one rule for navigating to a target from outside the code (a URL's query, storage, a
 * message; ADR 0013). No zod: the web's first screen and the WeCom emulator import it as `@broker/contract/app-routes`.
 */

/** Where the app lands when nothing else (or nothing acceptable) is asked for: the client list. */
export const APP_HOME_PATH = '/client/manage/list';

/** WeCom's OAuth return point: never a target (a sign-in would land on itself again). */
export const APP_SIGN_IN_RETURN_PATH = '/wxEntry';

/** Every page of docs/spec.md §2 (and the audit trail); `apps/web/src/app/route-table.ts` lists the same (a test checks). */
export const APP_PAGE_PATHS = [
  '/client/manage/list',
  '/client/manage/search',
  '/client/manage/filter',
  '/client/information',
  '/client/information/accountDetail/holdingStock',
  '/client/information/accountDetail/transaction',
  '/client/information/moneyRecord/moneyRecord',
  '/client/information/moneyRecord/transferStock',
  '/client/edit',
  '/kyc/index',
  '/mot/home',
  '/mot/eventDetail',
  '/mot/singleClient',
  '/mot/historySearch',
  '/me/audit',
  '/client/contact/new',
  '/client/contact/record',
  '/client/contact/log',
  '/client/contact/print',
  APP_SIGN_IN_RETURN_PATH,
] as const;

/** Paths the router redirects (keeping the query): `/` is also WeCom's entry URL for the chat sidebar. */
export const APP_REDIRECT_PATHS = ['/', '/client', '/client/manage', '/mot'] as const;

/** A longer target is refused whole rather than cut (a cut query could change its meaning). */
export const APP_TARGET_MAX_LENGTH = 2048;

/** Control, format and space characters and the backslash: browsers drop or rewrite them in a URL (`/\evil` → `//evil`). */
const UNSAFE_CHARACTER = /[\p{C}\p{Z}\\]/u;

const OWN_PATHS: ReadonlyMap<string, string> = new Map(
  [...APP_PAGE_PATHS, ...APP_REDIRECT_PATHS].filter((path) => path !== APP_SIGN_IN_RETURN_PATH).map((path) => [path.toLowerCase(), path]),
);

/** Any origin serves to resolve a path; the result is compared with it, never shown. */
const PARSE_BASE = 'https://app.invalid';

/**
 * The one safe-navigation rule: `raw` as `/route` or `/route?query` when its path is one of this app's routes (never
 * /wxEntry), the route spelled as the route table spells it, no fragment; anything else the client list. Idempotent.
 * The query is passed on as data, each value checked by the page that reads it.
 */
export function safeAppTarget(raw: unknown): string {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > APP_TARGET_MAX_LENGTH) return APP_HOME_PATH;
  if (!raw.startsWith('/') || raw.startsWith('//') || UNSAFE_CHARACTER.test(raw)) return APP_HOME_PATH;
  let url: URL;
  try {
    url = new URL(raw, PARSE_BASE);
  } catch {
    return APP_HOME_PATH;
  }
  if (url.origin !== PARSE_BASE) return APP_HOME_PATH;
  const pathname = url.pathname.length > 1 ? url.pathname.replace(/\/$/, '') : url.pathname;
  const route = OWN_PATHS.get(pathname.toLowerCase());
  if (!route) return APP_HOME_PATH;
  const search = url.search.length > 1 ? url.search : '';
  const target = `${route}${search}`;
  // Percent-encoding can lengthen a query: what is returned must pass this check again unchanged.
  return target.length > APP_TARGET_MAX_LENGTH ? APP_HOME_PATH : target;
}

/** The longest WeCom OAuth code accepted (the loginQywx request schema allows the same). */
export const SIGN_IN_CODE_MAX_LENGTH = 512;

/** A WeCom OAuth code is URL-safe ASCII: one with a control, format or space character or a backslash is no code. */
export const isSignInCodeText = (code: string) => !UNSAFE_CHARACTER.test(code);

/**
 * The one check of a WeCom OAuth return (`/wxEntry?code=…`), which anyone can craft: the code when it is one the server
 * would take, else null (nothing is exchanged). Whose code it is, the `state` check (ADR 0011) and the server decide.
 */
export function signInCodeOf(pathname: string, search: string): string | null {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
  if (path.toLowerCase() !== APP_SIGN_IN_RETURN_PATH.toLowerCase()) return null;
  const code = new URLSearchParams(search).get('code')?.trim();
  if (!code || code.length > SIGN_IN_CODE_MAX_LENGTH || !isSignInCodeText(code)) return null;
  return code;
}
