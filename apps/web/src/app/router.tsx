import { Component, startTransition, Suspense, useLayoutEffect, useState, type ReactNode } from 'react';
import {
  UNSAFE_createBrowserHistory as createBrowserHistory,
  Router,
  type Location,
  type NavigationType,
  type NavigateOptions,
  type Navigator,
  type To,
} from 'react-router';
import { preloadPath } from './route-match';
import { Shell } from './shell';
import { StartupFallback } from './startup-fallback';
import { RouteErrorPage } from './route-error-page';

/*
 * React Router in declarative mode rather than the data router, whose machinery weighed on the first screen (ADR 0029). A navigation
 * changes the URL only once the destination's chunk is in (the navigator preloads it), and every view update is a transition, so the
 * previous page stays on screen until then; a visit's first page shows StartupFallback while it loads (route-match.tsx).
 */

// In declarative mode useNavigate() returns nothing (the data router's returns a promise); React Router's
// types allow both, so every navigate() read as a floating promise to the lint.
declare module 'react-router' {
  interface NavigateFunction {
    (to: To, options?: NavigateOptions): void;
    (delta: number): void;
  }
}

export function createAppRouter() {
  // v5Compat: listeners hear our own push/replace too, not only the browser's back and forward.
  const history = createBrowserHistory({ v5Compat: true });
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((listener) => listener());
  let settledKey: string | null = null;
  history.listen(notify);
  // The destination page's chunk first (see the top of this file); a failed load still navigates: the error page shows.
  const whenReady = (to: To) => {
    const pathname = typeof to === 'string' ? new URL(to, window.location.href).pathname : (to.pathname ?? history.location.pathname);
    return preloadPath(pathname).catch(() => undefined);
  };
  const navigator: Navigator = {
    createHref: (to) => history.createHref(to),
    encodeLocation: (to) => history.encodeLocation(to),
    go: (delta) => history.go(delta),
    push: (to, state) => void whenReady(to).then(() => history.push(to, state)),
    replace: (to, state) => void whenReady(to).then(() => history.replace(to, state)),
  };
  return {
    history,
    navigator,
    get state() {
      const { pathname, search, key } = history.location;
      return {
        initialized: settledKey !== null,
        navigation: { state: settledKey === key ? ('idle' as const) : ('loading' as const) },
        location: { pathname, search, key },
      };
    },
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async navigate(to: string, options?: { replace?: boolean }) {
      await whenReady(to);
      if (options?.replace) history.replace(to);
      else history.push(to);
    },
    /** The page for this location key has rendered (its lazy chunk is in): the router is at rest. */
    settled(locationKey: string) {
      if (settledKey === locationKey) return;
      settledKey = locationKey;
      notify();
    },
  };
}

/** A render error or a chunk that failed to load (e.g. lost after a deploy): the error page, until the next navigation. */
class RouteErrorBoundary extends Component<{ resetKey: string; children: ReactNode }, { failedAt: string | null }> {
  override state: { failedAt: string | null } = { failedAt: null };
  static getDerivedStateFromError() {
    return { failedAt: '' };
  }
  override componentDidCatch() {
    // Remember where it failed, so moving elsewhere renders the new page instead of the error.
    this.setState({ failedAt: this.props.resetKey });
  }
  override componentDidUpdate() {
    const { failedAt } = this.state;
    if (failedAt && failedAt !== this.props.resetKey) this.setState({ failedAt: null });
  }
  override render() {
    return this.state.failedAt === null ? this.props.children : <RouteErrorPage />;
  }
}

export function AppRoutes({ router }: { router: ReturnType<typeof createAppRouter> }) {
  const { history, navigator, settled } = router;
  const [location, setLocation] = useState<{ location: Location; action: NavigationType }>(() => ({
    location: history.location,
    action: history.action,
  }));
  // A browser history takes one listener (the router's own); the view follows through subscribe().
  useLayoutEffect(() => {
    const follow = () => {
      const next = { location: history.location, action: history.action };
      startTransition(() => setLocation((shown) => (shown.location.key === next.location.key ? shown : next)));
    };
    const unsubscribe = router.subscribe(follow);
    follow(); // a navigation made before this subscribed
    return unsubscribe;
  }, [router, history]);
  return (
    <Router location={location.location} navigationType={location.action} navigator={navigator}>
      <RouteErrorBoundary resetKey={location.location.key}>
        <Suspense fallback={<StartupFallback />}>
          <Shell onSettled={settled} />
        </Suspense>
      </RouteErrorBoundary>
    </Router>
  );
}
