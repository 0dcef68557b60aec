/** Moved with the re-login from shared/api (issue 20 §4): the request layer announces, this feature signs in again. */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import { z } from 'zod';
import { defineEndpoint } from '@broker/contract';
import { request } from '../../shared/api/request';
import { ApiError } from '../../shared/api/api-error';
import { queryClient } from '../../shared/api/query-client';
import { resetRelogin, setReloginNavigator } from './relogin';
import { installSessionRecovery } from './session-recovery';
import { useAppSettings } from '../../shared/session/app-settings-store';
import { useUser } from '../../shared/session/user-store';

interface Call {
  url: string;
  init: RequestInit;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let calls: Call[];
let answer: (call: Call) => Response | Promise<Response>;
let navigations: string[];
/** The server's answer to resuming this browser's session; by default it has none (080005). */
let resume: (call: Call) => Response;
let stopRecovery: () => void;

beforeEach(() => {
  calls = [];
  navigations = [];
  answer = () => json({ code: '0', msg: 'ok', data: null });
  resume = () => json({ code: '080005', msg: 'cookie: no live session is bound to this browser', data: null }, 401);
  sessionStorage.clear();
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    const call = { url, init };
    calls.push(call);
    if (url.startsWith('/api/auth/session/resume')) return resume(call);
    if (url.startsWith('/api/auth/login/start')) {
      return json({
        code: '0',
        msg: 'ok',
        data: {
          authorizeUrl: '/wecom/connect/oauth2/authorize?appid=wwcorp&state=S1#wechat_redirect',
          state: 'S1',
          expiresAt: Date.now() + 600_000,
        },
      });
    }
    return answer(call);
  });
  setReloginNavigator((url) => navigations.push(url));
  resetRelogin();
  stopRecovery = installSessionRecovery();
  queryClient.clear();
  useAppSettings.getState().reset();
  useUser.getState().signIn({
    token: 'tok-1',
    onlineStaff: true,
    bd: true,
    heco: false,
    tokenExpireTime: Date.now() + 60_000,
    staffEmail: { email: null },
    userId: 'chanwaiman',
    staffName: '陈伟文',
  });
});

afterEach(() => {
  stopRecovery();
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

const echoPost = defineEndpoint({
  method: 'POST',
  path: '/api/test/echo',
  agent: 'mot',
  auth: true,
  payload: 'json',
  errors: [],
  request: z.strictObject({ page: z.number(), keyword: z.string() }),
  response: z.object({ total: z.number() }),
  summary: 'test',
  tag: 'test',
});

describe('signing in again when the session ends', () => {
  test.each(['080000', '080001'])('%s clears the token and sends the user to sign in again', async (code) => {
    answer = () => json({ code, msg: 'login expired', data: null }, 401);
    await expect(request(echoPost, { page: 1, keyword: '' })).rejects.toMatchObject({ code });
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
    answer = () => json({ code: '080000', msg: 'login expired', data: null }, 401);
    await expect(request(echoPost, { page: 1, keyword: '' })).rejects.toMatchObject({ code: '080000' });
    await waitFor(() => expect(navigations).toHaveLength(1));
    const start = calls.find((call) => call.url === '/api/auth/login/start')!;
    expect(JSON.parse(start.init.body as string)).toMatchObject({ agentCode: 'mot' });
  });

  test('a browser whose cookie still holds a session resumes it instead of leaving for WeCom', async () => {
    resume = () =>
      json({
        code: '0',
        msg: 'ok',
        data: {
          token: 'resumed-token',
          onlineStaff: true,
          bd: true,
          heco: false,
          tokenExpireTime: Date.now() + 60_000,
          staffEmail: { email: null },
          userId: 'chanwaiman',
          staffName: '陈伟文',
        },
      });
    answer = () => json({ code: '080001', msg: 'invalid token', data: null }, 401);
    await expect(request(echoPost, { page: 1, keyword: '' })).rejects.toMatchObject({ code: '080001' });
    await waitFor(() => expect(useUser.getState().token).toBe('resumed-token'));
    expect(localStorage.getItem('token')).toBe('resumed-token');
    expect(navigations).toEqual([]);
    expect(calls.some((call) => call.url === '/api/auth/login/start')).toBe(false);
    // A second loss in the same page goes through WeCom: no loop between two answers.
    await expect(request(echoPost, { page: 1, keyword: '' })).rejects.toMatchObject({ code: '080001' });
    await waitFor(() => expect(navigations).toHaveLength(1));
  });

  test('after signing out, a late 080001 does not start a sign-in: the user asks for one', async () => {
    useUser.getState().signOut();
    answer = () => json({ code: '080001', msg: 'invalid token', data: null }, 401);
    await expect(request(echoPost, { page: 1, keyword: '' }, { silent: true })).rejects.toMatchObject({ code: '080001' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(navigations).toEqual([]);
    expect(calls.some((call) => call.url.startsWith('/api/auth/'))).toBe(false);
    useUser.getState().leaveSignedOut();
  });

  test('a caller handling an ended session itself (sign-out) is not sent to sign in', async () => {
    answer = () => json({ code: '080001', msg: 'invalid token', data: null }, 401);
    await expect(request(echoPost, { page: 1, keyword: '' }, { silent: true, relogin: false })).rejects.toMatchObject({ code: '080001' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(navigations).toEqual([]);
    expect(calls.some((call) => call.url.startsWith('/api/auth/'))).toBe(false);
  });

  test('one re-login for ten simultaneous 080001 responses', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    answer = async () => {
      await gate;
      return json({ code: '080001', msg: 'invalid token', data: null }, 401);
    };
    const failures = Array.from({ length: 10 }, () => request(echoPost, { page: 1, keyword: '' }).catch((error: unknown) => error));
    release();
    const errors = await Promise.all(failures);
    expect(errors.every((error) => error instanceof ApiError && error.code === '080001')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(navigations).toHaveLength(1);
    expect(calls.filter((call) => call.url === '/api/auth/session/resume')).toHaveLength(1);
    expect(calls.filter((call) => call.url === '/api/auth/login/start')).toHaveLength(1);
  });
});
