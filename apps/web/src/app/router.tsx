import { createBrowserRouter, redirect, type RouteObject } from 'react-router';
import { Shell, type RouteHandle } from './shell';
import { NotFoundPage } from './not-found-page';
import { StartupFallback } from './startup-fallback';
import { RouteErrorPage } from './route-error-page';
import { pageRoutes, redirectRoutes } from './route-table';

const RedirectPlaceholder = () => null;

const children: RouteObject[] = [
  ...redirectRoutes.map((route): RouteObject => ({
    path: route.path,
    loader: ({ request }) => redirect(`${route.redirectTo}${new URL(request.url).search}`),
    // Never rendered (the loader always redirects); present so the router does not warn about an empty leaf.
    Component: RedirectPlaceholder,
  })),
  ...pageRoutes.map((route): RouteObject => ({
    path: route.path,
    handle: { name: route.name, titleKey: route.titleKey } satisfies RouteHandle,
    lazy: async () => ({ Component: (await route.load()).default }),
  })),
  { path: '*', Component: NotFoundPage, handle: { name: 'notFound', titleKey: 'title.notFound' } satisfies RouteHandle },
];

export const createAppRouter = () =>
  createBrowserRouter([{ Component: Shell, HydrateFallback: StartupFallback, ErrorBoundary: RouteErrorPage, children }]);

export type AppRouter = ReturnType<typeof createAppRouter>;
