import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { loadUserSettings } from './user-settings';
import { queryClient } from '../../shared/api/query-client';
import { useAppSettings } from '../../shared/session/app-settings-store';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

beforeEach(() => {
  queryClient.clear();
  useAppSettings.getState().reset();
});
afterEach(() => vi.unstubAllGlobals());

test('user settings load rates, default currency and fold flag', async () => {
  vi.stubGlobal('fetch', async (url: string) => {
    if (url.startsWith('/api/client/common/getCurrencyExchangeRate'))
      return json({ code: '0', msg: 'ok', data: [{ toCcy: 'USD', rate: 0.128 }] });
    if (url.startsWith('/api/client/staff/asset/getDefaultCcy')) return json({ code: '0', msg: 'ok', data: { ccy: 'USD' } });
    if (url.startsWith('/api/mot/todoEventRule/isFold')) return json({ code: '0', msg: 'ok', data: true });
    return json({ code: '090404', msg: 'no', data: null }, 404);
  });
  await loadUserSettings();
  expect(useAppSettings.getState()).toMatchObject({ currency: 'USD', currencyConfig: { HKD: 1, USD: 0.128 }, motFold: true });
});

test('a failing silent call leaves its default and does not stop the others', async () => {
  vi.stubGlobal('fetch', async (url: string) => {
    if (url.startsWith('/api/client/staff/asset/getDefaultCcy')) return json({ code: '0', msg: 'ok', data: { ccy: 'CNY' } });
    return json({ code: '090404', msg: 'not found', data: null }, 404);
  });
  await expect(loadUserSettings()).resolves.toEqual({ currency: 'CNY' });
  expect(useAppSettings.getState()).toMatchObject({ currency: 'CNY', currencyConfig: { HKD: 1 }, motFold: false });
  expect(document.body.textContent).not.toContain('not found');
});
