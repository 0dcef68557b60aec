import { useCallback, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';

/**
 * A page's filter in its URL query, so back, forward, reload and a sign-in round trip show it again. The query is untrusted:
 * a value `accept` rejects reads as `initial`, which stays out of the URL. A change replaces the history entry.
 */
export function useUrlState<T extends string>(name: string, initial: T, accept: (value: unknown) => value is T): [T, (value: T) => void] {
  const location = useLocation();
  const navigate = useNavigate();
  // A page hidden by keep-alive still renders with another page's location: only its own path's query counts.
  const [pathname] = useState(location.pathname);
  const [ownSearch, setOwnSearch] = useState(location.search);
  if (location.pathname === pathname && location.search !== ownSearch) setOwnSearch(location.search);
  const raw = new URLSearchParams(ownSearch).get(name);
  const value = raw !== null && accept(raw) ? raw : initial;
  const set = useCallback(
    (next: T) => {
      const params = new URLSearchParams(window.location.search);
      if (next === initial) params.delete(name);
      else params.set(name, next);
      const search = params.toString();
      void navigate({ pathname, search: search ? `?${search}` : '' }, { replace: true });
    },
    [initial, name, navigate, pathname],
  );
  return [value, set];
}
