import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { Activity } from 'react';
import { act, screen } from '@testing-library/react';
import { endpoints, type WireEndpoint } from '../../shared/api/contract';
import { queryClient } from '../../shared/api/query-client';
import { request } from '../../shared/api/request';
import { customerListItem, renderPage, stubIntersectionObserver } from '../../testing/render-page';
import ClientManageListPage from './client-manage-list-page';
import { manageLocalesReady } from './manage-locales';

vi.mock('../../shared/api/request', () => ({ request: vi.fn() }));
const requestMock = vi.mocked(request);

beforeEach(async () => {
  await manageLocalesReady;
  queryClient.clear();
  stubIntersectionObserver();
  requestMock.mockImplementation(async (endpoint: WireEndpoint) => {
    if (endpoint === endpoints.statCustomers) return { clients: 20, totalAssetsHkd: 20_000, active: 20, newThisMonth: 0, byChannel: [] };
    if (endpoint === endpoints.searchCustomers)
      return {
        list: Array.from({ length: 20 }, (_, index) => customerListItem(index + 1)),
        total: 20,
        pageNum: 1,
        pageSize: 20,
        hasMore: false,
      };
    if (endpoint === endpoints.getShortcuts) return { pinned: [], recentClients: [], recentSearches: [], savedFilters: [] };
    throw new Error(`unexpected ${endpoint.path}`);
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  requestMock.mockReset();
});

test('the kept client list still holds its rows when the manager comes back, however long they were away', async () => {
  const listPage = (mode: 'visible' | 'hidden') => (
    <Activity mode={mode}>
      <ClientManageListPage />
    </Activity>
  );
  const view = renderPage(listPage('visible'));
  expect(await screen.findAllByTestId('client-row')).toHaveLength(20);
  vi.useFakeTimers();
  // Kept alive but hidden, the page observes no query: half an hour with a client's profile open.
  view.rerender(listPage('hidden'));
  act(() => {
    vi.advanceTimersByTime(30 * 60_000);
  });
  view.rerender(listPage('visible'));
  // The same rows at once (the place the manager left is among them), not a first page loading again.
  expect(screen.getAllByTestId('client-row')).toHaveLength(20);
});
