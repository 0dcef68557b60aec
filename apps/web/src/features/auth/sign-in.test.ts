import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { isForeignSignIn, signInWithCode } from './sign-in';
import { useUser } from '../../shared/session/user-store';
import { okResponse, signedIn } from '../../testing/fake-api';
import { changeLanguage } from '../../shared/i18n/i18n';

const login = () => signedIn({ token: 'new-token', userId: 'leekaying', staffName: '李嘉欣' });

let calls: string[];
let answer: () => Response;

beforeEach(() => {
  calls = [];
  answer = () => okResponse(login());
  vi.stubGlobal('fetch', async (url: string) => {
    calls.push(url);
    return answer();
  });
  sessionStorage.clear();
  useUser.getState().signIn(signedIn({ token: 'a-token' }));
});
afterEach(() => vi.unstubAllGlobals());

describe('the page half of the login-CSRF check (ADR 0011)', () => {
  test('a return whose state is not the one this tab started sends nothing and keeps who is signed in', async () => {
    sessionStorage.setItem('signInState', 'mine');
    const outcome = signInWithCode('code-of-someone-else', 'theirs');
    await expect(outcome).rejects.toSatisfy(isForeignSignIn);
    expect(calls).toEqual([]);
    expect(useUser.getState()).toMatchObject({ token: 'a-token', userId: 'chanwaiman' });
  });

  test('a return without a state is refused the same way', async () => {
    await expect(signInWithCode('code-without-state', null)).rejects.toSatisfy(isForeignSignIn);
    expect(calls).toEqual([]);
  });

  test('its own state goes to the server with the code; the remembered state is then used up', async () => {
    sessionStorage.setItem('signInState', 'mine');
    await signInWithCode('my-code', 'mine');
    expect(calls).toEqual(['/api/auth/login/qywx?code=my-code&state=mine&language=zh-CN']);
    expect(sessionStorage.getItem('signInState')).toBeNull();
    expect(useUser.getState()).toMatchObject({ token: 'new-token', userId: 'leekaying', staffName: '李嘉欣' });
  });

  test("the app's language goes with the code: the server keeps it for the manager's WeCom cards (ADR 0042)", async () => {
    await changeLanguage('zh-HK');
    try {
      await signInWithCode('code-in-zh-hk', 'mine');
    } finally {
      await changeLanguage('zh-CN');
    }
    expect(calls).toEqual(['/api/auth/login/qywx?code=code-in-zh-hk&state=mine&language=zh-HK']);
  });

  test("the server's 080004 (no matching cookie) counts as foreign and stores no token", async () => {
    answer = () =>
      new Response(JSON.stringify({ code: '080004', msg: 'query.state: is not the sign-in this browser started', data: null }), {
        status: 401,
        headers: { 'content-type': 'application/json' },
      });
    // This tab's storage was emptied (it remembers no state): the server's cookie check decides.
    await expect(signInWithCode('another-code', 'whatever')).rejects.toSatisfy(isForeignSignIn);
    expect(useUser.getState()).toMatchObject({ token: 'a-token', userId: 'chanwaiman' });
  });
});
