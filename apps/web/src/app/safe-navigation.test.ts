import { describe, expect, test } from 'vitest';
import { APP_HOME_PATH, APP_PAGE_PATHS, APP_REDIRECT_PATHS } from '@broker/contract/app-routes';
import { hostileNavigationTargets } from '@broker/contract/testing';
import { pageRoutes, redirectRoutes } from './route-table';
import { kycTarget } from '../features/kyc';
import { HOME_PATH, WX_ENTRY_PATH, returnPageOf } from '../features/auth';

/** Where a navigation to `target` ends up, as the browser would resolve it from this app's origin. */
const resolved = (target: string) => new URL(target, 'https://broker.example');

describe('the route table and the safe-navigation rule know the same routes', () => {
  test('page paths', () => {
    expect(pageRoutes.map((route) => route.path).sort()).toEqual([...APP_PAGE_PATHS].sort());
  });
  test('redirect paths', () => {
    expect(redirectRoutes.map((route) => route.path).sort()).toEqual([...APP_REDIRECT_PATHS].sort());
  });
  test('home and the sign-in return point', () => {
    expect(HOME_PATH).toBe(APP_HOME_PATH);
    expect(pageRoutes.find((route) => route.name === 'wxEntry')?.path).toBe(WX_ENTRY_PATH);
  });
});

// An empty redirectPage is no redirectPage: each path then has its own default (tested beside it).
const targets = hostileNavigationTargets().filter(({ target }) => target !== '');

describe('relauchType reLogin / pushPage returns (SPEC.md §4) go through the rule', () => {
  test.each(['reLogin', 'pushPage'])('%s: every hostile redirectPage comes back as an own route', (relauchType) => {
    for (const { target, lands } of targets) {
      const search = `?${new URLSearchParams({ relauchType, redirectPage: target }).toString()}`;
      expect(returnPageOf({ pathname: '/mot/home', search }), JSON.stringify(target)).toEqual({ redirectPage: lands, relauchType });
    }
  });
  test('from /wxEntry too', () => {
    for (const { target, lands } of targets) {
      const search = `?${new URLSearchParams({ code: 'c', redirectPage: target }).toString()}`;
      expect(returnPageOf({ pathname: WX_ENTRY_PATH, search }).redirectPage, JSON.stringify(target)).toBe(lands);
    }
  });
  test('an unknown page the user is on returns to the client list', () => {
    expect(returnPageOf({ pathname: '/no/such/page', search: '?a=1' }).redirectPage).toBe(APP_HOME_PATH);
  });
});

describe('the KYC storage listener (SPEC.md §4) goes through the rule', () => {
  test('bind: redirectPage from the URL, customerId from storage, never another origin', () => {
    for (const { target, lands } of targets) {
      const search = `?${new URLSearchParams({ redirectPage: target }).toString()}`;
      const next = resolved(kycTarget('bind:9:1', search, '9'));
      expect(next.origin, JSON.stringify(target)).toBe('https://broker.example');
      expect(next.pathname, JSON.stringify(target)).toBe(resolved(lands).pathname);
      expect(next.searchParams.get('customerId')).toBe('9');
    }
  });
  test('a customerId from storage is data in the query, not a path', () => {
    const next = resolved(kycTarget('bind:1:1', '', '//evil.example/?a=b#c'));
    expect(next.origin).toBe('https://broker.example');
    expect(next.pathname).toBe('/client/information');
    expect(next.searchParams.getAll('customerId')).toEqual(['//evil.example/?a=b#c']);
  });
  test('a redirectPage that already names a customer gets the bound one, not two', () => {
    const next = resolved(kycTarget('bind:1:1', `?redirectPage=${encodeURIComponent('/mot/singleClient?customerId=5')}`, '9'));
    expect(next.searchParams.getAll('customerId')).toEqual(['9']);
  });
  test('unbind: /kyc/index carrying a redirectPage that is itself an own route', () => {
    for (const { target, lands } of targets) {
      const next = resolved(kycTarget('unbind:9:1', `?${new URLSearchParams({ redirectPage: target }).toString()}`, null));
      expect(`${next.pathname}`, JSON.stringify(target)).toBe('/kyc/index');
      expect(next.searchParams.get('redirectPage'), JSON.stringify(target)).toBe(lands);
    }
  });
});
