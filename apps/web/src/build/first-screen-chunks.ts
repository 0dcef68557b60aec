/**
 * Which chunks of the production build (Vite's manifest) are a first screen's JavaScript, for the budget test and the
 * client-management browser test: every script fetched before the list shows its first rows must be counted here. That is
 * (1) index.html's entry, its modulepreloads (`HTML_PRELOADS`) and their static imports; (2) the route's lazy chunk and its
 * static imports; (3) what the page awaits before showing content though loaded on demand: the client list's response
 * checker (ADR 0023, ADR 0032).
 */
import type { Manifest } from 'vite';

export type { Manifest };

export interface FirstScreen {
  name: string;
  /** The page's lazy chunk (its manifest key). */
  route: string;
  /** Chunks loaded on demand that the page needs before it shows its content (manifest keys). */
  beforeContent: readonly string[];
}

export const ENTRY = 'index.html';
/** What `request()` loads with the first call and awaits before it resolves (shared/api/request.ts). */
export const RESPONSE_CHECKER = 'src/shared/api/response-check.ts';

export const FIRST_SCREENS = [
  { name: 'client list (/)', route: 'src/features/manage/client-manage-list-page.tsx', beforeContent: [RESPONSE_CHECKER] },
  // Its first screen is the "signing in" state, shown before any call answers.
  { name: 'sign-in (/wxEntry)', route: 'src/features/auth/wx-entry-page.tsx', beforeContent: [] },
] as const satisfies readonly FirstScreen[];

/** Preloaded by index.html (ADR 0037): every visit's first page is the home or leads to it, so they count as start-up. */
export const HTML_PRELOADS = [FIRST_SCREENS[0].route, RESPONSE_CHECKER] as const;

/** Only in WeCom's browser, after the first page settled: the sidebar flow the rows do not wait for, so not first-screen JavaScript. */
export const IN_WECOM_ONCE_SETTLED = ['src/features/kyc/sidebar-flow.ts', '../../node_modules/@wecom/jssdk/dist/wecom.prod.js'] as const;

/** The manifest keys of a chunk and of every chunk it imports statically, transitively. */
export function staticClosure(manifest: Manifest, key: string, into = new Set<string>()): Set<string> {
  if (into.has(key)) return into;
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the build manifest`);
  into.add(key);
  for (const imported of chunk.imports ?? []) staticClosure(manifest, imported, into);
  return into;
}

export type Part = 'start-up' | 'route' | 'on demand';

/** Every chunk of a first screen (each once), with the part it belongs to. */
export function firstScreenChunks(manifest: Manifest, screen: FirstScreen): { key: string; file: string; part: Part }[] {
  const parts = new Map<string, Part>();
  const add = (key: string, part: Part) => {
    for (const member of staticClosure(manifest, key)) if (!parts.has(member)) parts.set(member, part);
  };
  add(ENTRY, 'start-up');
  for (const key of HTML_PRELOADS) add(key, 'start-up');
  add(screen.route, 'route');
  for (const key of screen.beforeContent) add(key, 'on demand');
  return [...parts].map(([key, part]) => ({ key, file: manifest[key]!.file, part }));
}
