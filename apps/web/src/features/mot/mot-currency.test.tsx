import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import type { MotCustomerSummary, MotEvent, MotTodoRow } from '@broker/contract';
import { endpoints, type WireEndpoint } from '../../shared/api/contract';
import { queryClient } from '../../shared/api/query-client';
import { useAppSettings } from '../../shared/session/app-settings-store';
import { i18n } from '../../shared/i18n/i18n';
import { request } from '../../shared/api/request';
import { renderPage } from '../../testing/render-page';
import MotHomePage from './mot-home-page';
import MotSingleClientPage from './mot-single-client-page';

/** Issue 24 (5): the MOT pages show the rules' HKD figures in the display currency, and follow a switch at once. */

vi.mock('../../shared/api/request', () => ({ request: vi.fn() }));
const requestMock = vi.mocked(request);

/** Units per 1 HKD, as getCurrencyExchangeRate gives them. */
const RATES = { HKD: 1, USD: 0.128, CNY: 0.92 };

beforeEach(async () => {
  await i18n.changeLanguage('zh-CN');
  queryClient.clear();
  useAppSettings.getState().reset();
  useAppSettings.getState().update({ currency: 'USD', currencyConfig: RATES });
});
afterEach(() => {
  requestMock.mockReset();
  useAppSettings.getState().reset();
});

const withdrawalFacts = {
  movementId: 7,
  amount: 150000,
  currency: 'HKD',
  rate: 1,
  amountHkd: 150000,
  thresholdHkd: 100000,
  method: 'fps',
  occurredAt: '2026-11-21T12:00:00',
};

const customer: MotCustomerSummary = {
  customerId: 5,
  customerNo: 'C00000005',
  nameCn: '陈大文',
  nameEn: 'CHAN Tai Man',
  phone: null,
  status: 'active',
  riskLevel: 3,
  openDate: '2020-01-02',
  totalAssetsHkd: 1_000_000,
  lastTradeDate: '2026-11-01',
};

const event: MotEvent = {
  eventId: 9,
  rule: 'large_withdrawal',
  status: 'seen',
  dueDate: '2026-11-21',
  customerId: 5,
  facts: withdrawalFacts,
  createdAt: 0,
  seenAt: 0,
  handledAt: null,
  serviceRecord: null,
};

test("the client's page: the reason's equivalent and threshold and the total assets in the chosen currency, switching at once", async () => {
  requestMock.mockImplementation(async (endpoint: WireEndpoint) => {
    if (endpoint === endpoints.getClientHistory) return { list: [event], total: 1, pageNum: 1, pageSize: 20, hasMore: false, customer };
    throw new Error(`unexpected ${endpoint.path}`);
  });
  renderPage(<MotSingleClientPage />, { path: '/mot/singleClient?customerId=5' });

  const row = await screen.findByTestId('mot-client-event');
  expect(row.textContent).toContain('出金 HKD 150,000.00，折合 USD 19,200.00，不低于大额门槛 USD 12,800');
  expect(screen.getByText('总资产（USD）').nextElementSibling?.textContent).toBe('128,000.00');

  act(() => useAppSettings.getState().update({ currency: 'CNY' }));
  await waitFor(() => expect(row.textContent).toContain('折合 CNY 138,000.00，不低于大额门槛 CNY 92,000'));
  expect(screen.getByText('总资产（CNY）').nextElementSibling?.textContent).toBe('920,000.00');

  // In HKD, an HKD withdrawal needs no equivalent: the rule's own figures.
  act(() => useAppSettings.getState().update({ currency: 'HKD' }));
  await waitFor(() => expect(row.textContent).toContain('出金 HKD 150,000.00，不低于大额门槛 HKD 100,000'));
});

test("the client's page names negative net assets as such (ADR 0043), and the risk level as R1–R5", async () => {
  const underWater = { ...customer, totalAssetsHkd: -120_000.5 };
  requestMock.mockImplementation(async (endpoint: WireEndpoint) => {
    if (endpoint === endpoints.getClientHistory)
      return { list: [event], total: 1, pageNum: 1, pageSize: 20, hasMore: false, customer: underWater };
    throw new Error(`unexpected ${endpoint.path}`);
  });
  renderPage(<MotSingleClientPage />, { path: '/mot/singleClient?customerId=5' });

  await screen.findByTestId('mot-client-event');
  const value = screen.getByText('净资产（USD）').nextElementSibling;
  expect(value?.textContent).toBe('-15,360.06 · 负资产');
  expect(value?.className).toContain('mot-facts__value--negative');
  expect(screen.queryByText('总资产（USD）')).toBeNull();
  expect(screen.getByText('风险等级').nextElementSibling?.textContent).toBe('R3');
});

test('the home list: an amount booked in another currency is followed by its value in the chosen one', async () => {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-11-21T02:00:00Z') });
  const row = (eventId: number, facts: MotTodoRow['events'][number]['facts']): MotTodoRow => ({
    customerId: eventId,
    customerNo: `C${eventId}`,
    nameCn: `客户${eventId}`,
    nameEn: `Client ${eventId}`,
    phone: null,
    unseen: false,
    events: [{ eventId, rule: 'large_withdrawal', status: 'seen', dueDate: '2026-11-21', facts }],
  });
  requestMock.mockImplementation(async (endpoint: WireEndpoint) => {
    if (endpoint === endpoints.getTodoDates) return [{ date: '2026-11-21', count: 2, unseen: 0 }];
    if (endpoint === endpoints.getTodoTaskCount)
      return { total: 2, unseen: 0, byRule: [{ rule: 'large_withdrawal', count: 2, unseen: 0 }] };
    if (endpoint === endpoints.getTodoClients) {
      const list = [row(1, withdrawalFacts), row(2, { amount: 20000, currency: 'USD', amountHkd: 156250, thresholdHkd: 100000 })];
      return { list, total: 2, pageNum: 1, pageSize: 20, hasMore: false, fold: false };
    }
    throw new Error(`unexpected ${endpoint.path}`);
  });
  // Today's list by client (the ranked one is `mot-rank.test.tsx`'s).
  renderPage(<MotHomePage />, { path: '/?view=day' });

  const list = await screen.findByTestId('mot-list');
  await waitFor(() => expect(within(list).getAllByTestId('mot-row')).toHaveLength(2));
  const subjects = () => [...list.querySelectorAll('.mot-row__subject')].map((subject) => subject.textContent);
  expect(subjects()).toEqual(['HKD 150,000.00 (≈ USD 19,200)', 'USD 20,000.00']);
  act(() => useAppSettings.getState().update({ currency: 'HKD' }));
  await waitFor(() => expect(subjects()).toEqual(['HKD 150,000.00', 'USD 20,000.00 (≈ HKD 156,250)']));
  vi.useRealTimers();
});
