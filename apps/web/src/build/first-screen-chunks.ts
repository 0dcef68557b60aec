/**
 * Which chunks of the production build are a first screen's JavaScript, read from Vite's manifest
 * (`dist/.vite/manifest.json`). Shared by the budget test (`src/first-screen-budget.test.ts`), which sums
 * them, and the client-management browser test, which holds the list to them: every script the browser
 * fetches before the list shows its first rows must be one counted here.
 *
 * A first screen is
 *   1. what index.html loads: the entry chunk plus every chunk it imports statically, transitively, and the
 *      home page's chunks it preloads for every visit (`HTML_PRELOADS`, with their static imports): exactly the
 *      `<link rel="modulepreload">` list;
 *   2. the route's own lazy chunk (the page is on screen), plus its static imports, transitively;
 *   3. what the page cannot show its content without although it is loaded on demand: for the client list,
 *      the response checker, which `request()` imports beside the first call and awaits before it hands the
 *      rows over (ADR 0023, ADR 0032), plus its static imports.
 */
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

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

/**
 * What index.html preloads beside the start-up scripts (vite-plugins/preload-home.ts, ADR 0037): the home page's
 * chunk and the response checker it awaits, so a cold visit fetches them at once instead of once the start-up
 * code has run and rendered. Every visit's first page is the home or leads to it (the sign-in returns there), so
 * every first screen fetches them: they count as start-up.
 */
export const HTML_PRELOADS = [FIRST_SCREENS[0].route, RESPONSE_CHECKER] as const;

/**
 * Inside WeCom's browser only: once the first page has settled (rendered, its chunk in), the sidebar flow
 * loads with the WeCom JS-SDK to ask WeCom what the page was opened for (features/kyc). It runs beside the
 * list's calls and the rows do not wait for it, so it is not first-screen JavaScript; the browser test lets
 * exactly these through.
 */
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
