import { useEffect, useState, type ComponentType, type ReactNode } from 'react';

/**
 * A piece of a page whose code loads the first time a page needs it (a sheet, the pins row, a windowed list,
 * an illustration), kept out of the first screen's JavaScript (ADR 0029). Made with `lazyPart`, shown with
 * `WhenLoaded`.
 */
export interface LazyPart<Props> {
  /** The component once its module is in; null before. */
  component: ComponentType<Props> | null;
  /** Starts the load once (a failed load is forgotten, so the next page that needs it tries again). */
  load(): Promise<ComponentType<Props>>;
}

export function lazyPart<Props>(importer: () => Promise<ComponentType<Props>>): LazyPart<Props> {
  let loading: Promise<ComponentType<Props>> | null = null;
  const part: LazyPart<Props> = {
    component: null,
    load: () =>
      (loading ??= importer().then(
        (component) => (part.component = component),
        (error: unknown) => {
          loading = null;
          throw error;
        },
      )),
  };
  return part;
}

/**
 * Renders `children` with the part's component once its module is in, `fallback` (default nothing) before.
 * It never suspends, and that is the point (ADR 0055): pages are kept alive in React's <Activity>
 * (app/keep-alive.tsx), and a Suspense boundary inside a page that was waiting on a lazy module while the
 * page was hidden and shown again left the page's previous DOM in place beside the new (the client list
 * showed its unfiltered rows above the filtered ones, e2e client-management). So no page code uses
 * React.lazy under a Suspense boundary; it shows its parts through here. `wanted` false: nothing is loaded
 * (yet) and the fallback shows. A failed load keeps the fallback; the next host that wants the part tries again.
 */
export function WhenLoaded<Props>({
  part,
  wanted = true,
  fallback = null,
  children,
}: {
  part: LazyPart<Props>;
  wanted?: boolean;
  fallback?: ReactNode;
  children: (Part: ComponentType<Props>) => ReactNode;
}) {
  const [component, setComponent] = useState(() => part.component);
  useEffect(() => {
    if (wanted && !component)
      part.load().then(
        (loaded) => setComponent(() => loaded),
        () => undefined,
      );
  }, [part, wanted, component]);
  return wanted && component ? children(component) : fallback;
}
