import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { useUser } from '../session/user-store';
import { signInAs } from '../../testing/fake-api';
import { useAppSettings } from '../session/app-settings-store';
import { bindSessionValue, installPageStateRestore, isDay, oneOf, sweepPageState, useRestorableState } from './page-state';

/** A router that tells its subscribers where it is, as app/router.tsx does. */
function fakeRouter(pathname: string, search = '') {
  const listeners = new Set<() => void>();
  const router = {
    state: { location: { pathname, search } },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    go(nextPath: string, nextSearch = '') {
      router.state = { location: { pathname: nextPath, search: nextSearch } };
      listeners.forEach((listener) => listener());
    },
  };
  return router;
}

const MARKETS = ['all', 'HK', 'US'] as const;
const isMarket = oneOf(MARKETS);

/** The transaction page's market filter, rendered at `url`. */
const renderFilter = (url: string) =>
  renderHook(() => useRestorableState<(typeof MARKETS)[number]>('market', 'all', isMarket), {
    wrapper: ({ children }: { children: ReactNode }) => createElement(MemoryRouter, { initialEntries: [url] }, children),
  });

const PAGE = '/client/information/accountDetail/transaction?customerId=3';
let stop: () => void = () => undefined;

beforeEach(() => {
  useAppSettings.getState().reset();
  signInAs('chanwaiman');
});

afterEach(() => {
  stop();
  useUser.getState().clearToken();
});

describe("a page's filters come back when a new document starts on that page", () => {
  test('after a reload of that page', () => {
    stop = installPageStateRestore(fakeRouter('/x'), { pathname: '/x', search: '' });
    const first = renderFilter(PAGE);
    act(() => first.result.current[1]('US'));
    first.unmount();

    const reloaded = fakeRouter('/client/information/accountDetail/transaction', '?customerId=3');
    stop = installPageStateRestore(reloaded, reloaded.state.location, true);
    expect(renderFilter(PAGE).result.current[0]).toBe('US');
  });

  test('not when the same URL is opened afresh (a link, a menu): that starts from the defaults', () => {
    stop = installPageStateRestore(fakeRouter('/x'), { pathname: '/x', search: '' });
    const first = renderFilter(PAGE);
    act(() => first.result.current[1]('US'));
    first.unmount();

    const opened = fakeRouter('/client/information/accountDetail/transaction', '?customerId=3');
    stop = installPageStateRestore(opened, opened.state.location, false);
    expect(renderFilter(PAGE).result.current[0]).toBe('all');
  });

  test('after the sign-in round trip: /wxEntry returns to that page (redirectPage, by the safe-navigation rule)', () => {
    stop = installPageStateRestore(fakeRouter('/x'), { pathname: '/x', search: '' });
    const first = renderFilter(PAGE);
    act(() => first.result.current[1]('HK'));
    first.unmount();

    const router = fakeRouter('/wxEntry', `?code=c&redirectPage=${encodeURIComponent(PAGE)}`);
    stop = installPageStateRestore(router, router.state.location);
    router.go('/client/information/accountDetail/transaction', '?customerId=3');
    expect(renderFilter(PAGE).result.current[0]).toBe('HK');
  });

  test('not for another customer, nor once the user has moved on to another page', () => {
    stop = installPageStateRestore(fakeRouter('/x'), { pathname: '/x', search: '' });
    const first = renderFilter(PAGE);
    act(() => first.result.current[1]('US'));
    first.unmount();

    const router = fakeRouter('/client/information/accountDetail/transaction', '?customerId=3');
    stop = installPageStateRestore(router, router.state.location, true);
    expect(renderFilter('/client/information/accountDetail/transaction?customerId=4').result.current[0]).toBe('all');
    router.go('/mot/home');
    router.go('/client/information/accountDetail/transaction', '?customerId=3');
    expect(renderFilter(PAGE).result.current[0]).toBe('all');
  });

  test("never another staff member's, and only values the page recognises", () => {
    stop = installPageStateRestore(fakeRouter('/x'), { pathname: '/x', search: '' });
    const first = renderFilter(PAGE);
    act(() => first.result.current[1]('US'));
    first.unmount();
    const reload = () => {
      stop();
      const reloaded = fakeRouter('/client/information/accountDetail/transaction', '?customerId=3');
      stop = installPageStateRestore(reloaded, reloaded.state.location, true);
    };

    signInAs('leekaying');
    reload();
    expect(renderFilter(PAGE).result.current[0]).toBe('all');

    signInAs('chanwaiman');
    const stored = JSON.parse(sessionStorage.getItem('pageState')!) as { pages: Record<string, { values: Record<string, unknown> }> };
    stored.pages[PAGE]!.values.market = '<script>';
    sessionStorage.setItem('pageState', JSON.stringify(stored));
    reload();
    expect(renderFilter(PAGE).result.current[0]).toBe('all');
  });

  test('another staff member signing in, or signing out, forgets them', () => {
    stop = installPageStateRestore(fakeRouter('/x'), { pathname: '/x', search: '' });
    const filter = renderFilter(PAGE);
    act(() => filter.result.current[1]('US'));
    sweepPageState('fxhl/chanwaiman');
    expect(sessionStorage.getItem('pageState')).not.toBeNull();
    sweepPageState('fxhl/leekaying');
    expect(sessionStorage.getItem('pageState')).toBeNull();
  });
});

describe('session values (the client list filters)', () => {
  test('a document opened afresh starts from the defaults', () => {
    stop = installPageStateRestore(fakeRouter('/x'), { pathname: '/x', search: '' }, true);
    const first = bindSessionValue('listFilters', isDay, () => undefined);
    first.write('2026-11-20');
    stop();
    stop = installPageStateRestore(fakeRouter('/client/manage/list'), { pathname: '/client/manage/list', search: '' }, false);
    let applied: string | undefined = 'unset';
    bindSessionValue('listFilters', isDay, (kept) => (applied = kept));
    expect(applied).toBeUndefined();
  });

  test("restored for whoever signs in: A's for A, nothing of A's for B", () => {
    const signInReturn = fakeRouter('/wxEntry', '?code=c');
    stop = installPageStateRestore(signInReturn, signInReturn.state.location, false);
    let applied: string | undefined = 'unset';
    const value = bindSessionValue('listFilters', isDay, (kept) => (applied = kept));
    expect(applied).toBeUndefined();
    value.write('2026-11-20');
    signInAs('leekaying');
    expect(applied).toBeUndefined();
    useUser.getState().clearToken();
    signInAs('chanwaiman');
    expect(applied).toBe('2026-11-20');
  });
});
