import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { endpoints, type WireEndpoint } from '../../shared/api/contract';
import { queryClient } from '../../shared/api/query-client';
import { useAppSettings } from '../../shared/session/app-settings-store';
import { i18n } from '../../shared/i18n/i18n';
import { request } from '../../shared/api/request';
import { MotSettingsSheet } from './mot-settings-sheet';

vi.mock('../../shared/api/request', () => ({ request: vi.fn() }));
const requestMock = vi.mocked(request);

beforeEach(async () => {
  await i18n.changeLanguage('zh-CN');
  queryClient.clear();
  useAppSettings.getState().reset();
});
afterEach(() => requestMock.mockReset());

test('the WeCom-card switch shows the saved choice and the quiet hours, and saves a change (ADR 0042)', async () => {
  const pushSetting = { push: true, quietHours: { from: '21:00', until: '08:00' } };
  requestMock.mockImplementation(async (endpoint: WireEndpoint, input?: unknown) => {
    if (endpoint === endpoints.getMinCashIO) return { minCashIO: 100_000 };
    if (endpoint === endpoints.getMotPushSetting) return pushSetting;
    if (endpoint === endpoints.setMotPushSetting) return { ...pushSetting, push: (input as { push: boolean }).push };
    throw new Error(`unexpected call ${endpoint.path}`);
  });
  render(
    <QueryClientProvider client={queryClient}>
      <MotSettingsSheet visible onClose={() => undefined} />
    </QueryClientProvider>,
  );
  const setting = await screen.findByTestId('mot-push-setting');
  expect(setting.textContent).toContain('企业微信提醒');
  await waitFor(() => expect(setting.textContent).toContain('21:00–08:00（香港时间）不推送'));
  const toggle = screen.getByRole('switch', { name: '企业微信提醒' });
  await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('true'));
  fireEvent.click(toggle);
  await waitFor(() => expect(requestMock).toHaveBeenCalledWith(endpoints.setMotPushSetting, { push: false }));
  await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('false'));
});
