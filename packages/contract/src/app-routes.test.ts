import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { APP_HOME_PATH, APP_PAGE_PATHS, APP_REDIRECT_PATHS, APP_SIGN_IN_RETURN_PATH, safeAppTarget } from './app-routes';
import { hostileNavigationTargets, hostileTargetArbitrary } from './testing';

const ORIGIN = 'https://broker.example';
const OWN = new Set<string>([...APP_PAGE_PATHS, ...APP_REDIRECT_PATHS].filter((path) => path !== APP_SIGN_IN_RETURN_PATH));

/** What every answer must be, whatever came in. */
function expectSafe(result: string) {
  expect(result.startsWith('/')).toBe(true);
  expect(result.startsWith('//')).toBe(false);
  expect(result).not.toMatch(/[\p{C}\p{Z}\\#]/u);
  const url = new URL(result, ORIGIN);
  expect(url.origin).toBe(ORIGIN);
  expect(OWN.has(url.pathname)).toBe(true);
  expect(safeAppTarget(result)).toBe(result);
}

describe('safeAppTarget', () => {
  test.each(hostileNavigationTargets().map(({ target, lands }) => [JSON.stringify(target).slice(0, 80), target, lands]))(
    '%s',
    (_label, target, lands) => {
      const result = safeAppTarget(target);
      expect(result).toBe(lands);
      expectSafe(result);
    },
  );

  test('every own route is accepted as it is, with its query; a fragment is dropped', () => {
    for (const path of OWN) {
      expect(safeAppTarget(path)).toBe(path);
      expect(safeAppTarget(`${path}?customerId=7&x=%2F%2Fy`)).toBe(`${path}?customerId=7&x=%2F%2Fy`);
      expect(safeAppTarget(`${path}#top`)).toBe(path);
    }
  });

  test('the route is spelled as the table spells it (the router matches without case and trailing slash)', () => {
    expect(safeAppTarget('/Client/Information/?customerId=3')).toBe('/client/information?customerId=3');
    expect(safeAppTarget('/client/./edit?customerId=3')).toBe('/client/edit?customerId=3');
  });

  test('/wxEntry is never a target, in any spelling (a sign-in would land on itself)', () => {
    for (const target of ['/wxEntry', '/wxentry', '/WxEntry/', '/wxEntry?redirectPage=%2Fmot%2Fhome']) {
      expect(safeAppTarget(target)).toBe(APP_HOME_PATH);
    }
  });

  test('whatever is not a string lands on the client list', () => {
    for (const value of [null, undefined, 0, {}, ['/mot/home'], new URL('/mot/home', ORIGIN)])
      expect(safeAppTarget(value)).toBe(APP_HOME_PATH);
  });

  test('property: any string at all gives a same-origin own route, and the answer passes again unchanged', () => {
    fc.assert(
      fc.property(hostileTargetArbitrary, (target) => {
        expectSafe(safeAppTarget(target));
      }),
      { numRuns: 3000, seed: 13 },
    );
  });
});
