/*
 * The web app's own routes, and the one rule for navigating to a target that came from outside the code:
 * a URL's query (`redirectPage` on /wxEntry, `relauchType` returns), storage (the KYC listener of SPEC.md
 * §4) or a message (the emulator's sidebar `url`). Plain TypeScript, no zod: the web app's first screen
 * and the WeCom emulator import it as `@broker/contract/app-routes`. ADR 0013.
 */

/** Where the app lands when nothing else (or nothing acceptable) is asked for: the client list. */
export const APP_HOME_PATH = '/client/manage/list';

/** WeCom's OAuth return point: never a target (a sign-in would land on itself again). */
export const APP_SIGN_IN_RETURN_PATH = '/wxEntry';

/** Every page of SPEC.md §2 (and the audit trail); `apps/web/src/app/route-table.ts` lists the same (a test checks). */
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

/**
 * Control and format characters (NUL, tab, newline, DEL, C1, zero-width and bidi marks, BOM …), every kind
 * of space, and the backslash: browsers drop or rewrite these while parsing a URL (`/\evil` and `/\t/evil`
 * become `//evil`), so a target holding one is refused outright instead of being guessed at.
 */
const UNSAFE_CHARACTER = /[\p{C}\p{Z}\\]/u;

const OWN_PATHS: ReadonlyMap<string, string> = new Map(
  [...APP_PAGE_PATHS, ...APP_REDIRECT_PATHS].filter((path) => path !== APP_SIGN_IN_RETURN_PATH).map((path) => [path.toLowerCase(), path]),
);

/** Any origin serves to resolve a path; the result is compared with it, never shown. */
const PARSE_BASE = 'https://app.invalid';

/**
 * The one safe-navigation rule: `raw` as a same-origin target when its path is one of this app's own routes
 * (page or redirect, never /wxEntry), otherwise the client list. What comes back is always a relative URL
 * of the form `/route` or `/route?query` — the route spelled as the route table spells it (the router
 * matches without case and trailing slash), the query as the URL parser normalised it, no fragment. The query
 * is passed on as data: the page reading it checks each value (a nested `redirectPage` goes through here
 * again). Idempotent: a result passed back in comes out unchanged.
 *
 * Refused (→ client list): anything not a string, empty or longer than APP_TARGET_MAX_LENGTH; absolute and
 * protocol-relative URLs (`https://x`, `//x`, `/\x`, `\\x`), `javascript:` / `data:` / `vbscript:` in any
 * case; control characters, whitespace and backslashes anywhere; encoded or look-alike slashes
 * (`/%2F%2Fx`, `%2F%2Fx`, `/%5Cx`, `／／x`), which simply name no route; unknown paths; /wxEntry.
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

/**
 * A WeCom OAuth code is URL-safe ASCII: one holding a control, format or space character or a backslash is no
 * code (the loginQywx request schema refuses it, and the sign-in return does not send it).
 */
export const isSignInCodeText = (code: string) => !UNSAFE_CHARACTER.test(code);

/**
 * The one check of a WeCom OAuth return (`/wxEntry?code=…`), which anyone can craft: the code when the path is
 * the sign-in return and its `code` is one the server would take (trimmed, 1–SIGN_IN_CODE_MAX_LENGTH characters,
 * no control, format or space characters, no backslash); otherwise null — not a sign-in, nothing is exchanged.
 * Passing says nothing of whose code it is: the `state` check (ADR 0011) and the server decide that.
 */
export function signInCodeOf(pathname: string, search: string): string | null {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
  if (path.toLowerCase() !== APP_SIGN_IN_RETURN_PATH.toLowerCase()) return null;
  const code = new URLSearchParams(search).get('code')?.trim();
  if (!code || code.length > SIGN_IN_CODE_MAX_LENGTH || !isSignInCodeText(code)) return null;
  return code;
}
