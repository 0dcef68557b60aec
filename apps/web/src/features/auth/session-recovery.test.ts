/** Moved with the re-login from shared/api (issue 20 §4): the request layer announces, this feature signs in again. */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import { request } from '../../shared/api/request';
import { endpoints } from '../../shared/api/contract';
import { ApiError } from '../../shared/api/api-error';
import { queryClient } from '../../shared/api/query-client';
import { resetRelogin, setReloginNavigator } from './relogin';
import { installSessionRecovery } from './session-recovery';
import { useAppSettings } from '../../shared/session/app-settings-store';
import { useUser } from '../../shared/session/user-store';
import { jsonResponse, okResponse, signedIn, stubFetch, type FakeCall } from '../../testing/fake-api';

let calls: FakeCall[];
let answer: (call: FakeCall) => Response | Promise<Response>;
let navigations: string[];
/** The server's answer to resuming this browser's session; by default it has none (080005). */
let resume: (call: FakeCall) => Response;
let stopRecovery: () => void;

beforeEach(() => {
  navigations = [];
  answer = () => okResponse(null);
  resume = () => jsonResponse({ code: '080005', msg: 'cookie: no live session is bound to this browser', data: null }, 401);
  sessionStorage.clear();
  calls = stubFetch((call) => {
    if (call.url.startsWith('/api/auth/session/resume')) return resume(call);
    if (call.url.startsWith('/api/auth/login/start')) {
      return okResponse({
        authorizeUrl: '/wecom/connect/oauth2/authorize?appid=wwcorp&state=S1#wechat_redirect',
        state: 'S1',
        expiresAt: Date.now() + 600_000,
      });
    }
    return answer(call);
  });
  setReloginNavigator((url) => navigations.push(url));
  resetRelogin();
  stopRecovery = installSessionRecovery();
  queryClient.clear();
  useAppSettings.getState().reset();
  useUser.getState().signIn(signedIn());
});

afterEach(() => {
  stopRecovery();
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

describe('signing in again when the session ends', () => {
  test.each(['080000', '080001'])('%s clears the token and sends the user to sign in again', async (code) => {
    answer = () => jsonResponse({ code, msg: 'login expired', data: null }, 401);
    await expect(request(endpoints.markEventsSeen, { eventIds: [1] })).rejects.toMatchObject({ code });
    await waitFor(() => expect(navigations).toHaveLength(1));
    expect(localStorage.getItem('token')).toBeNull();
    expect(useUser.getState().token).toBe('');
    expect(navigations[0]).toContain('/wecom/connect/oauth2/authorize?');
    // The server began the sign-in for the agent this page was opened from; the page keeps its state.
    const start = calls.find((call) => call.url === '/api/auth/login/start')!;
    // (jsdom's page is `/`, so the return page is the client list.)
    expect(JSON.parse(start.init.body as string)).toEqual({ agentCode: 'khzl', redirectPage: '/client/manage/list' });
    expect(sessionStorage.getItem('signInState')).toBe('S1');
  });

  test('a sign-in begins for the agent whose home page opened the app (issue 19.1)', async () => {
    useAppSettings.getState().update({ agentCode: 'mot' });
    answer = () => jsonResponse({ code: '080000', msg: 'login expired', data: null }, 401);
    await expect(request(endpoints.markEventsSeen, { eventIds: [1] })).rejects.toMatchObject({ code: '080000' });
    await waitFor(() => expect(navigations).toHaveLength(1));
    const start = calls.find((call) => call.url === '/api/auth/login/start')!;
    expect(JSON.parse(start.init.body as string)).toMatchObject({ agentCode: 'mot' });
  });

  test('a browser whose cookie still holds a session resumes it instead of leaving for WeCom', async () => {
    resume = () => okResponse(signedIn({ token: 'resumed-token' }));
    answer = () => jsonResponse({ code: '080001', msg: 'invalid token', data: null }, 401);
    await expect(request(endpoints.markEventsSeen, { eventIds: [1] })).rejects.toMatchObject({ code: '080001' });
    await waitFor(() => expect(useUser.getState().token).toBe('resumed-token'));
    expect(localStorage.getItem('token')).toBe('resumed-token');
    expect(navigations).toEqual([]);
    expect(calls.some((call) => call.url === '/api/auth/login/start')).toBe(false);
    // A second loss in the same page goes through WeCom: no loop between two answers.
    await expect(request(endpoints.markEventsSeen, { eventIds: [1] })).rejects.toMatchObject({ code: '080001' });
    await waitFor(() => expect(navigations).toHaveLength(1));
  });

  test('after signing out, a late 080001 does not start a sign-in: the user asks for one', async () => {
    useUser.getState().signOut();
    answer = () => jsonResponse({ code: '080001', msg: 'invalid token', data: null }, 401);
    await expect(request(endpoints.markEventsSeen, { eventIds: [1] }, { silent: true })).rejects.toMatchObject({ code: '080001' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(navigations).toEqual([]);
    expect(calls.some((call) => call.url.startsWith('/api/auth/'))).toBe(false);
    useUser.getState().leaveSignedOut();
  });

  test('a caller handling an ended session itself (sign-out) is not sent to sign in', async () => {
    answer = () => jsonResponse({ code: '080001', msg: 'invalid token', data: null }, 401);
    await expect(request(endpoints.markEventsSeen, { eventIds: [1] }, { silent: true, relogin: false })).rejects.toMatchObject({
      code: '080001',
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(navigations).toEqual([]);
    expect(calls.some((call) => call.url.startsWith('/api/auth/'))).toBe(false);
  });

  test('one re-login for ten simultaneous 080001 responses', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    answer = async () => {
      await gate;
      return jsonResponse({ code: '080001', msg: 'invalid token', data: null }, 401);
    };
    const failures = Array.from({ length: 10 }, () =>
      request(endpoints.markEventsSeen, { eventIds: [1] }).catch((error: unknown) => error),
    );
    release();
    const errors = await Promise.all(failures);
    expect(errors.every((error) => error instanceof ApiError && error.code === '080001')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(navigations).toHaveLength(1);
    expect(calls.filter((call) => call.url === '/api/auth/session/resume')).toHaveLength(1);
    expect(calls.filter((call) => call.url === '/api/auth/login/start')).toHaveLength(1);
  });
});
