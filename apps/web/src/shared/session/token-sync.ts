import { readStoredToken, useUser } from './user-store';

/** docs/spec.md §4 "Page show": a page from the bfcache or shown again may hold an older token than localStorage: take it and reload. */
export function installTokenSync(win: Window = window, reload: () => void = () => win.location.reload()) {
  const onPageShow = () => {
    const stored = readStoredToken();
    if (stored !== useUser.getState().token) {
      useUser.getState().adoptToken(stored);
      reload();
    }
  };
  win.addEventListener('pageshow', onPageShow);
  return () => win.removeEventListener('pageshow', onPageShow);
}
