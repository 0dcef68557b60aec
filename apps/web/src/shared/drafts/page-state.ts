import { useEffect, useState, type Dispatch, type SetStateAction } from 'react';
import { useLocation } from 'react-router';
import { APP_SIGN_IN_RETURN_PATH, safeAppTarget } from '@broker/contract/app-routes';
import { useUser } from '../session/user-store';
import { draftOwner } from './draft-owner';

/*
 * A page's filters, kept in sessionStorage per staff member and URL, come back on the first page a document shows when it
 * resumes the tab's work (from /wxEntry, or a reload), as a session expiry or a crash would lose them (ADR 0013).
 */

const STORAGE_KEY = 'pageState';
/** Pages remembered at most (the least recently written go first). */
const MAX_PAGES = 20;
const SESSION = '*';

interface StoredPageState {
  owner: string;
  pages: Record<string, { at: number; values: Record<string, unknown> }>;
}

function read(owner: string): StoredPageState {
  try {
    const value = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null') as StoredPageState | null;
    if (value && value.owner === owner && value.pages && typeof value.pages === 'object') return value;
  } catch {
    // Unreadable (edited, or storage disabled): start over.
  }
  return { owner, pages: {} };
}

function write(page: string, name: string, value: unknown) {
  const owner = draftOwner();
  if (!owner) return;
  const state = read(owner);
  const entry = state.pages[page] ?? { at: 0, values: {} };
  state.pages[page] = { at: Date.now(), values: { ...entry.values, [name]: value } };
  const pages = Object.entries(state.pages).sort(([, a], [, b]) => b.at - a.at);
  state.pages = Object.fromEntries(pages.slice(0, MAX_PAGES));
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(state));
  } catch {
    // Quota or disabled storage: the filters are a courtesy.
  }
}

function stored(page: string, name: string): unknown {
  const owner = draftOwner();
  if (!owner) return undefined;
  return read(owner).pages[page]?.values[name];
}

/** Forgets every page's state unless it belongs to `keepOwner` (another staff member signed in, or sign-out). */
export function sweepPageState(keepOwner: string | null) {
  try {
    const value = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null') as StoredPageState | null;
    if (value && (keepOwner === null || value.owner !== keepOwner)) sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    sessionStorage.removeItem(STORAGE_KEY);
  }
}

let landing: string | null = null;
/** This document carries on the tab's work: the sign-in round trip's return, or a reload. */
let resumes = false;

const wasReloaded = () => {
  const [entry] = (typeof performance.getEntriesByType === 'function' ? performance.getEntriesByType('navigation') : []) as {
    type?: string;
  }[];
  return entry?.type === 'reload';
};

/** What the router needs to offer (the router createAppRouter in app/router.tsx returns). */
interface LocationSource {
  readonly state: { location: { pathname: string; search: string } };
  subscribe(listener: () => void): () => void;
}

/** A resuming document's first page may take its state back: the one /wxEntry goes on to, or the one reloaded; no other. */
export function installPageStateRestore(
  router: LocationSource,
  location: Pick<Location, 'pathname' | 'search'> = window.location,
  reloaded = wasReloaded(),
) {
  const signInReturn = location.pathname.toLowerCase() === APP_SIGN_IN_RETURN_PATH.toLowerCase();
  resumes = signInReturn || reloaded;
  landing = signInReturn
    ? safeAppTarget(new URLSearchParams(location.search).get('redirectPage'))
    : reloaded
      ? `${location.pathname}${location.search}`
      : null;
  const unsubscribe = router.subscribe(() => {
    const { pathname, search } = router.state.location;
    if (pathname === APP_SIGN_IN_RETURN_PATH || `${pathname}${search}` === landing) return;
    landing = null;
    unsubscribe();
  });
  return unsubscribe;
}

/** Whether `page` (path and query) is the page this document started on, and the user is still there. */
export const isLandingPage = (page: string) => landing !== null && page === landing;

/** useState for a page's filter, remembered for its URL and taken back (if `accept` takes it) on a new document's first page. */
export function useRestorableState<T>(
  name: string,
  initial: T | (() => T),
  accept: (value: unknown) => value is T,
): [T, Dispatch<SetStateAction<T>>] {
  const location = useLocation();
  // A kept-alive page keeps the URL it was opened at, whatever the user looks at meanwhile.
  const [page] = useState(() => `${location.pathname}${location.search}`);
  const [value, setValue] = useState<T>(() => {
    if (isLandingPage(page)) {
      const kept = stored(page, name);
      if (accept(kept)) return kept;
    }
    return typeof initial === 'function' ? (initial as () => T)() : initial;
  });
  useEffect(() => write(page, name, value), [page, name, value]);
  return [value, setValue];
}

/**
 * A value of the tab's session for the signed-in staff member (the client list's filters: that page is always kept alive):
 * `apply` receives it when the document resumes and after each sign-in (`undefined`: defaults); `write` keeps it.
 */
export function bindSessionValue<T>(name: string, accept: (value: unknown) => value is T, apply: (value: T | undefined) => void) {
  const restore = () => {
    const kept = resumes ? stored(SESSION, name) : undefined;
    apply(accept(kept) ? kept : undefined);
  };
  restore();
  useUser.subscribe((state, previous) => {
    if (state.userId !== previous.userId || (state.token && !previous.token)) restore();
  });
  return { write: (value: T) => write(SESSION, name, value) };
}

/** Checks for restored values. */
export const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;
export const oneOf =
  <const T extends readonly unknown[]>(values: T) =>
  (value: unknown): value is T[number] =>
    values.includes(value);
export const isText = (value: unknown, max: number): value is string => typeof value === 'string' && value.length <= max;
export const isString = (value: unknown): value is string => isText(value, 200);
export const isDay = (value: unknown): value is string => typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);
export const isDayOrEmpty = (value: unknown): value is string => value === '' || isDay(value);
