import { useCallback, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';

/**
 * A page's filter kept in its own URL query (`?side=buy&period=m3`), so the filter is part of the history entry:
 * going back or forward to the page, a reload, or a sign-in round trip (its redirectPage carries the query) shows
 * it again. The query is untrusted (anyone can craft the link): a value `accept` does not recognise reads as
 * `initial`. The default is left out of the URL. Changing it replaces the entry (no history step per chip).
 */
export function useUrlState<T extends string>(name: string, initial: T, accept: (value: unknown) => value is T): [T, (value: T) => void] {
  const location = useLocation();
  const navigate = useNavigate();
  // A page hidden by keep-alive still renders with the router's current location, which is another page's:
  // it reads the query of its own path only, and keeps the last one it saw.
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
