import { use, type ComponentType } from 'react';
import { matchPath } from 'react-router';
import { pageRoutes, redirectRoutes, type PageRoute, type RedirectRoute, type RouteName } from './route-table';

export type MatchedRoute =
  { kind: 'redirect'; route: RedirectRoute } | { kind: 'page'; route: PageRoute; Page: ComponentType } | { kind: 'notFound' };

const loadedPages = new Map<RouteName, ComponentType>();
const loadingPages = new Map<RouteName, Promise<void>>();

/** Loads a page's chunk once (a failed load is tried again next time). */
export function preloadPage(route: PageRoute): Promise<void> {
  if (loadedPages.has(route.name)) return Promise.resolve();
  let loading = loadingPages.get(route.name);
  if (!loading) {
    loading = route.load().then((module) => void loadedPages.set(route.name, module.default));
    loading.catch(() => loadingPages.delete(route.name));
    loadingPages.set(route.name, loading);
  }
  return loading;
}

/** Loads the page a path leads to (through a redirect too), so navigating there renders it at once. */
export function preloadPath(pathname: string): Promise<void> {
  const matched = matchRoute(pathname);
  const target = matched.kind === 'redirect' ? matchRoute(matched.route.redirectTo) : matched;
  return target.kind === 'page' ? preloadPage(target.route) : Promise.resolve();
}

/** Renders a route's page: at once when its chunk is in (preloaded), else suspends until it is. */
const routePages = new Map<RouteName, ComponentType>(
  pageRoutes.map((route) => {
    const RoutePage = () => {
      const Page = loadedPages.get(route.name);
      if (Page) return <Page />;
      use(preloadPage(route));
      return null;
    };
    return [route.name, RoutePage];
  }),
);

/** Every path in the table is static; matching is case-insensitive and ignores a trailing slash, as before. */
export function matchRoute(pathname: string): MatchedRoute {
  const redirect = redirectRoutes.find((route) => matchPath(route.path, pathname));
  if (redirect) return { kind: 'redirect', route: redirect };
  const page = pageRoutes.find((route) => matchPath(route.path, pathname));
  if (page) return { kind: 'page', route: page, Page: routePages.get(page.name)! };
  return { kind: 'notFound' };
}
