import { useEffect, useState, type ComponentType, type ReactNode } from 'react';

/** A piece of a page whose code loads when first needed, off the first screen (ADR 0029): made with `lazyPart`, shown with `WhenLoaded`. */
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
 * `children` with the part's component once in, `fallback` before. It never suspends: a Suspense boundary in a kept-alive page
 * hidden and shown while waiting left the old DOM beside the new (ADR 0055). `wanted` false: nothing loads. A failed load keeps the
 * fallback; the next host that wants it tries again.
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
