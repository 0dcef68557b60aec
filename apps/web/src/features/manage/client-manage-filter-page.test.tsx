import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { endpoints, type WireEndpoint } from '../../shared/api/contract';
import { queryClient } from '../../shared/api/query-client';
import { request } from '../../shared/api/request';
import { renderPage } from '../../testing/render-page';
import ClientManageFilterPage from './client-manage-filter-page';
import { emptyFilters, useClientFilters, type FilterPayload } from './client-filters';
import { manageLocalesReady } from './manage-locales';

vi.mock('../../shared/api/request', () => ({ request: vi.fn() }));
const requestMock = vi.mocked(request);
const statsAsked: FilterPayload[] = [];

beforeEach(async () => {
  await manageLocalesReady;
  queryClient.clear();
  useClientFilters.setState({ applied: emptyFilters() });
  statsAsked.length = 0;
  requestMock.mockImplementation((async (endpoint: WireEndpoint, payload: FilterPayload) => {
    if (endpoint === endpoints.getChannel) return [];
    if (endpoint === endpoints.getShortcuts) return { pinned: [], recentClients: [], recentSearches: [], savedFilters: [] };
    if (endpoint === endpoints.statCustomers) {
      statsAsked.push(payload);
      return { clients: 7, totalAssetsHkd: 7000, active: 7, newThisMonth: 0, byChannel: [] };
    }
    throw new Error(`unexpected ${endpoint.path}`);
  }) as unknown as typeof request);
});
afterEach(() => requestMock.mockReset());

/** Real time: the preview asks once typing has paused for 300 ms. */
const pause = (ms: number) => act(() => new Promise((resolve) => setTimeout(resolve, ms)));

test('a range put right before its pause is over never asks for the wrong range (the server refuses it, a toast says so)', async () => {
  renderPage(<ClientManageFilterPage />);
  await waitFor(() => expect(statsAsked).toHaveLength(1));
  fireEvent.change(screen.getByTestId('asset-min'), { target: { value: '500000' } });
  fireEvent.change(screen.getByTestId('asset-max'), { target: { value: '1000' } });
  // The inline error shows, and the wrong range settles as the preview's request…
  await pause(400);
  // …then the manager clears it at once: valid again, while the settled range is still the wrong one.
  fireEvent.change(screen.getByTestId('asset-min'), { target: { value: '' } });
  fireEvent.change(screen.getByTestId('asset-max'), { target: { value: '' } });
  await pause(400);
  expect(
    statsAsked.filter((payload) => payload.assetMin !== undefined && payload.assetMax !== undefined && payload.assetMin > payload.assetMax),
  ).toEqual([]);
  expect(screen.getByTestId('filter-apply').textContent).toContain('7');
});
