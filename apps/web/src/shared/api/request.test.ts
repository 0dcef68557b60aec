import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import { endpoints } from '@broker/contract';
import { request } from './request';
import { ApiError } from './api-error';
import { queryClient } from './query-client';
import { onSessionInvalid } from './session-events';
import { endpoints as wireEndpoints } from './contract';
import { useAppSettings } from '../session/app-settings-store';
import { useUser } from '../session/user-store';
import { jsonResponse, okResponse, signedIn, stubFetch, type FakeCall } from '../../testing/fake-api';

const CORP_CONFIG = {
  corpCode: 'fxhl',
  corpId: 'wwcorp',
  corpName: 'FX',
  agents: [
    { agentCode: 'khzl', agentId: '1000002' },
    { agentCode: 'mot', agentId: '1000004' },
  ],
  oauthBase: '/wecom',
  emulator: true,
};

let calls: FakeCall[];
let answer: (call: FakeCall) => Response | Promise<Response>;

beforeEach(() => {
  answer = () => okResponse(null);
  sessionStorage.clear();
  calls = stubFetch((call) => (call.url.startsWith('/api/auth/corpConfig') ? okResponse(CORP_CONFIG) : answer(call)));
  queryClient.clear();
  useAppSettings.getState().reset();
  useUser.getState().signIn(signedIn());
});

afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

const headersOf = (call: FakeCall) => call.init.headers as Record<string, string>;

describe('request layer', () => {
  test('GET sends the query string and the three headers, resolves parsed data on code "0"', async () => {
    answer = () => okResponse({ ccy: 'USD' });
    await expect(request(endpoints.configureDefaultCcy, { ccy: 'USD' })).resolves.toEqual({ ccy: 'USD' });
    expect(calls[0]?.url).toBe('/api/client/staff/asset/configureDefaultCcy?ccy=USD');
    expect(calls[0]?.init.method).toBe('GET');
    expect(headersOf(calls[0]!)).toMatchObject({ 'agent-code': 'khzl', 'corp-code': 'fxhl', 'broker-token': 'tok-1' });
    expect(calls[0]?.init.body).toBeUndefined();
  });

  test('the agent-code header comes from the endpoint, the corp from the session', async () => {
    useAppSettings.getState().update({ corpCode: 'othercorp' });
    answer = () => okResponse({ updated: 1 });
    await request(endpoints.markEventsSeen, { eventIds: [1] });
    expect(headersOf(calls[0]!)).toMatchObject({ 'agent-code': 'mot', 'corp-code': 'othercorp' });
  });

  test('POST sends a JSON body', async () => {
    answer = () => okResponse({ updated: 2 });
    await expect(request(endpoints.markEventsSeen, { eventIds: [7, 8] })).resolves.toEqual({ updated: 2 });
    expect(calls[0]?.init.method).toBe('POST');
    expect(headersOf(calls[0]!)['content-type']).toBe('application/json');
    expect(JSON.parse(calls[0]?.init.body as string)).toEqual({ eventIds: [7, 8] });
  });

  test('POST form-data sends a FormData body without a JSON content type', async () => {
    answer = () => okResponse(true);
    await request(endpoints.setFold, { isFold: true });
    const body = calls[0]?.init.body;
    expect(body).toBeInstanceOf(FormData);
    expect((body as FormData).get('isFold')).toBe('true');
    expect(headersOf(calls[0]!)['content-type']).toBeUndefined();
  });

  test('calls without auth send no broker-token', async () => {
    await request(endpoints.getCorpConfig, { corpCode: 'fxhl' });
    expect(headersOf(calls[0]!)['broker-token']).toBeUndefined();
  });

  test('a business code other than "0" rejects and toasts the server msg', async () => {
    answer = () => jsonResponse({ code: '091001', msg: '该企微联系人已绑定其他客户', data: null }, 409);
    const failure = request(endpoints.markEventsSeen, { eventIds: [1] });
    await expect(failure).rejects.toMatchObject({ name: 'ApiError', code: '091001', message: '该企微联系人已绑定其他客户' });
    await waitFor(() => expect(document.body.textContent).toContain('该企微联系人已绑定其他客户'));
  });

  test("known codes speak the user's language instead of the English server msg; validation keeps it", async () => {
    answer = () => jsonResponse({ code: '090403', msg: 'this customer belongs to another staff member', data: null }, 403);
    await expect(request(endpoints.markEventsSeen, { eventIds: [1] }, { silent: true })).rejects.toMatchObject({
      code: '090403',
      message: '无权查看该内容',
    });
    answer = () => jsonResponse({ code: '090400', msg: 'email must be a valid email address', data: null }, 400);
    await expect(request(endpoints.markEventsSeen, { eventIds: [1] }, { silent: true })).rejects.toMatchObject({
      message: 'email must be a valid email address',
    });
  });

  // Before: every 090409 toasted "资料已被他人修改，请刷新后再保存", even for an MOT event handled meanwhile.
  test("a conflict (090409) toasts the server's msg, which says what conflicted (SPEC §8)", async () => {
    // The toast itself, not the page: an earlier test's afterEach emptied the body that holds the toast's container.
    const { default: Toast } = await import('../ui/antd-toast');
    const shown = vi.spyOn(Toast, 'show');
    const msg = 'eventId: event 12 has already been handled';
    answer = () => jsonResponse({ code: '090409', msg, data: null }, 409);
    await expect(request(endpoints.markEventsSeen, { eventIds: [12] })).rejects.toMatchObject({
      name: 'ApiError',
      code: '090409',
      message: msg,
    });
    await waitFor(() => expect(shown).toHaveBeenCalledWith(expect.objectContaining({ content: msg })));
    shown.mockRestore();
  });

  test('silent endpoints and callers who opt out get no toast', async () => {
    answer = () => jsonResponse({ code: '090500', msg: '服务暂不可用', data: null }, 500);
    await expect(request(endpoints.getDefaultCcy, {})).rejects.toBeInstanceOf(ApiError);
    await expect(request(endpoints.markEventsSeen, { eventIds: [1] }, { silent: true })).rejects.toBeInstanceOf(ApiError);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(document.body.textContent).not.toContain('服务暂不可用');
  });

  test("a body that is not the envelope rejects with BAD_RESPONSE (data itself is the server's to validate)", async () => {
    answer = () => jsonResponse({ updated: 3 });
    await expect(request(endpoints.markEventsSeen, { eventIds: [1] }, { silent: true })).rejects.toMatchObject({ code: 'BAD_RESPONSE' });
  });

  test('data that does not match the contract rejects with BAD_RESPONSE and its localized message, and is reported (never used)', async () => {
    const reported = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    answer = () => okResponse({ ccy: 'GBP' });
    const failure = request(wireEndpoints.configureDefaultCcy, { ccy: 'USD' }, { silent: true });
    await expect(failure).rejects.toMatchObject({
      code: 'BAD_RESPONSE',
      message: '服务返回的数据无法识别',
      detail: 'data.ccy: expected one of ["HKD","USD","CNY"], got "GBP"',
    });
    expect(reported).toHaveBeenCalledWith(expect.any(ApiError), expect.stringContaining('/configureDefaultCcy: data.ccy'));
    // The same endpoint answering as the contract says is used as it came.
    answer = () => okResponse({ ccy: 'USD' });
    await expect(request(wireEndpoints.configureDefaultCcy, { ccy: 'USD' })).resolves.toEqual({ ccy: 'USD' });
    reported.mockRestore();
  });

  test('a network failure rejects with NETWORK', async () => {
    answer = () => {
      throw new TypeError('Failed to fetch');
    };
    await expect(request(endpoints.markEventsSeen, { eventIds: [1] }, { silent: true })).rejects.toMatchObject({ code: 'NETWORK' });
  });

  test.each(['080000', '080001'])('%s rejects and announces "session invalid" (features/auth signs in again)', async (code) => {
    const announced = vi.fn();
    const unsubscribe = onSessionInvalid(announced);
    answer = () => jsonResponse({ code, msg: 'login expired', data: null }, 401);
    await expect(request(endpoints.markEventsSeen, { eventIds: [1] })).rejects.toMatchObject({ code });
    expect(announced).toHaveBeenCalledTimes(1);
    // A caller handling an ended session itself (sign-out) only gets the rejection.
    await expect(request(endpoints.markEventsSeen, { eventIds: [1] }, { silent: true, relogin: false })).rejects.toMatchObject({ code });
    expect(announced).toHaveBeenCalledTimes(1);
    unsubscribe();
  });
});
