import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import CurrencySwitcher from './currency-switcher';
import { queryClient } from '../../shared/api/query-client';
import { useAppSettings } from '../../shared/session/app-settings-store';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
const calls: string[] = [];

beforeEach(() => {
  calls.length = 0;
  queryClient.clear();
  useAppSettings.getState().reset();
});
afterEach(() => vi.unstubAllGlobals());

const renderSwitcher = () =>
  render(
    <QueryClientProvider client={queryClient}>
      <CurrencySwitcher />
    </QueryClientProvider>,
  );

test('a tap switches at once and saves the choice with configureDefaultCcy', async () => {
  vi.stubGlobal('fetch', async (url: string) => {
    calls.push(url);
    return json({ code: '0', msg: 'ok', data: { ccy: 'USD' } });
  });
  renderSwitcher();
  fireEvent.click(screen.getByRole('radio', { name: 'USD' }));
  expect(useAppSettings.getState().currency).toBe('USD');
  expect(screen.getByRole('radio', { name: 'USD' }).getAttribute('aria-checked')).toBe('true');
  await waitFor(() => expect(calls).toEqual(['/api/client/staff/asset/configureDefaultCcy?ccy=USD']));
});

test('when saving fails the previous currency comes back', async () => {
  vi.stubGlobal('fetch', async () => json({ code: '090500', msg: 'down', data: null }, 500));
  renderSwitcher();
  fireEvent.click(screen.getByRole('radio', { name: 'CNY' }));
  expect(useAppSettings.getState().currency).toBe('CNY');
  await waitFor(() => expect(useAppSettings.getState().currency).toBe('HKD'));
  // The manager is told it failed (a toast), not only shown the old choice again.
  await waitFor(() => expect(document.querySelector('.adm-toast-main')?.textContent).toBeTruthy());
});
