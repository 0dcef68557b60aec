import { beforeEach, describe, expect, test } from 'vitest';
import { dropSetAsideToken, restoreSetAsideToken, setAsideForFreshCode } from './fresh-code';
import { useUser } from '../../shared/session/user-store';
import { signedIn } from '../../testing/fake-api';

const at = (url: string) => {
  const { pathname, search } = new URL(url, 'https://app.invalid');
  return { pathname, search };
};
const stored = () => localStorage.getItem('token');

beforeEach(() => {
  dropSetAsideToken();
  sessionStorage.clear();
  useUser.getState().signIn(signedIn({ token: 'stored-token', staffName: '陈伟文' }));
});

describe('a fresh WeCom code is trusted over a stored token (issue 22.7, ADR 0047)', () => {
  test('back from WeCom with a code: the stored token is set aside before anything can use it', () => {
    expect(setAsideForFreshCode(at('/wxEntry?code=fresh&state=s1&redirectPage=%2Fmot%2Fhome'))).toBe('fresh');
    expect(useUser.getState().token).toBe('');
    expect(stored()).toBeNull();
    // Who was signed in is still known, for the page to name them if the code turns out not to be this browser's.
    expect(useUser.getState().staffName).toBe('陈伟文');
  });

  test("someone else's code: the set-aside token comes back, once", () => {
    setAsideForFreshCode(at('/wxEntry?code=theirs&state=x'));
    expect(restoreSetAsideToken()).toBe(true);
    expect(useUser.getState().token).toBe('stored-token');
    expect(stored()).toBe('stored-token');
    expect(restoreSetAsideToken()).toBe(false);
  });

  test("this browser's own code, exchanged or refused: the old token is not put back", () => {
    setAsideForFreshCode(at('/wxEntry?code=mine&state=s1'));
    dropSetAsideToken();
    expect(restoreSetAsideToken()).toBe(false);
    expect(useUser.getState().token).toBe('');
  });

  test('a new session already in place is never replaced by the set-aside token', () => {
    setAsideForFreshCode(at('/wxEntry?code=mine&state=s1'));
    useUser.getState().signIn(signedIn({ token: 'new-token' }));
    expect(restoreSetAsideToken()).toBe(false);
    expect(useUser.getState().token).toBe('new-token');
  });

  test.each([
    ['no code', '/wxEntry?state=s1'],
    ['an empty code', '/wxEntry?code=%20%20&state=s1'],
    ['a code too long', `/wxEntry?code=${'a'.repeat(513)}&state=s1`],
    ['a code with a control character', '/wxEntry?code=ab%0Acd&state=s1'],
    ['a code with a space inside', '/wxEntry?code=ab%20cd&state=s1'],
    ['a code on another page', '/client/manage/list?code=fresh&state=s1'],
  ])('%s is not a sign-in: the stored token stays as it is', (_, url) => {
    expect(setAsideForFreshCode(at(url))).toBeNull();
    expect(useUser.getState().token).toBe('stored-token');
    expect(stored()).toBe('stored-token');
  });

  test('the return path is matched as the router matches it (case, trailing slash)', () => {
    expect(setAsideForFreshCode(at('/WXENTRY/?code=fresh&state=s1'))).toBe('fresh');
  });
});
