/**
 * The few browser globals that page scripts in these tests touch. The e2e code is type-checked
 * with the Node configuration (no DOM lib), so page functions cast `globalThis` to this
 * (a type only: page functions are serialised, so they cannot call helpers).
 */
export interface PageGlobals {
  history: { state: unknown; pushState(state: unknown, unused: string, url: string): void };
  location: { pathname: string; search: string };
  localStorage: { getItem(key: string): string | null; setItem(key: string, value: string): void };
  sessionStorage: { getItem(key: string): string | null };
  document: {
    title: string;
    documentElement: { lang: string };
    querySelector(selector: string): { getAttribute(name: string): string | null } | null;
  };
  dispatchEvent(event: unknown): boolean;
  PopStateEvent: new (type: string, init: { state: unknown }) => unknown;
}
