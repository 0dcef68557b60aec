import { beforeEach, describe, expect, test } from 'vitest';
import { defaultAppSettings, useAppSettings } from './app-settings-store';
import { hasUsableToken, useUser } from './user-store';
import { applyEntryParams } from './entry-params';

describe('app settings', () => {
  beforeEach(() => useAppSettings.getState().reset());

  test('start from the SPEC.md §3 defaults', () => {
    expect(defaultAppSettings()).toEqual({
      entry: 'normal',
      corpCode: 'fxhl',
      agentCode: 'khzl',
      agentId: '',
      wxAppId: '',
      currency: 'HKD',
      currencyConfig: { HKD: 1 },
      motFold: false,
    });
  });

  test('are kept in sessionStorage, not localStorage', () => {
    useAppSettings.getState().update({ entry: 'single_chat_tools', agentId: '1000002' });
    const stored = JSON.parse(sessionStorage.getItem('appSettings') ?? '{}') as { state: Record<string, unknown> };
    expect(stored.state).toMatchObject({ entry: 'single_chat_tools', agentId: '1000002', corpCode: 'fxhl' });
    expect(localStorage.getItem('appSettings')).toBeNull();
  });

  test('take entry, corp and agent from the URL the app was opened with', () => {
    applyEntryParams('?entry=single_chat_tools&agentCode=mot&agentId=1000004&wxAppId=ww1');
    expect(useAppSettings.getState()).toMatchObject({ entry: 'single_chat_tools', agentCode: 'mot', agentId: '1000004', wxAppId: 'ww1' });
    applyEntryParams('?entry=bogus&agentCode=nope');
    expect(useAppSettings.getState()).toMatchObject({ entry: 'single_chat_tools', agentCode: 'mot' });
  });
});

describe('user store', () => {
  test('login defaults when nothing is stored: onlineStaff and bd true, heco false', () => {
    const state = useUser.getState();
    expect(state).toMatchObject({ onlineStaff: true, bd: true, heco: false });
  });

  test('keeps the token under `token` in localStorage with the login result and its expiry', () => {
    const tokenExpireTime = Date.now() + 3_600_000;
    useUser.getState().signIn({
      token: 'abc',
      onlineStaff: false,
      bd: false,
      heco: true,
      tokenExpireTime,
      staffEmail: { email: 'a@b.c' },
      userId: 'u1',
      staffName: 'S',
    });
    expect(localStorage.getItem('token')).toBe('abc');
    expect(JSON.parse(localStorage.getItem('loginInfo') ?? '{}')).toMatchObject({ tokenExpireTime, heco: true, onlineStaff: false });
    expect(hasUsableToken()).toBe(true);
    expect(hasUsableToken(useUser.getState(), tokenExpireTime + 1)).toBe(false);
    useUser.getState().clearToken();
    expect(localStorage.getItem('token')).toBeNull();
    expect(hasUsableToken()).toBe(false);
  });
});
