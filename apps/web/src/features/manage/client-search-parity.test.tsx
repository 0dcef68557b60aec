import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { endpoints, type WireEndpoint } from '../../shared/api/contract';
import { queryClient } from '../../shared/api/query-client';
import { request } from '../../shared/api/request';
import { customerListItem, renderPage, stubIntersectionObserver } from '../../testing/render-page';
import ClientManageListPage from './client-manage-list-page';
import ClientManageSearchPage from './client-manage-search-page';
import { emptyFilters, useClientFilters } from './client-filters';
import { manageLocalesReady } from './manage-locales';

vi.mock('../../shared/api/request', () => ({ request: vi.fn() }));
const requestMock = vi.mocked(request);

const client = (customerId: number) =>
  customerListItem(customerId, { nameCn: `黄${customerId}`, nameEn: `WONG ${customerId}`, matchedOn: 'name' });

const callsTo = (endpoint: WireEndpoint) => requestMock.mock.calls.filter(([called]) => called === endpoint).map(([, payload]) => payload);

beforeEach(async () => {
  await manageLocalesReady;
  queryClient.clear();
  useClientFilters.setState({ applied: emptyFilters() });
  // jsdom does not scroll: a new keyword takes the list back to the top.
  Element.prototype.scrollTo ??= () => {};
  stubIntersectionObserver();
  requestMock.mockImplementation((async (endpoint: WireEndpoint, payload: { customerId?: number }) => {
    if (endpoint === endpoints.statCustomers) return { clients: 2, totalAssetsHkd: 2000, active: 2, newThisMonth: 0, byChannel: [] };
    if (endpoint === endpoints.searchCustomers) return { list: [client(1), client(2)], total: 2, pageNum: 1, pageSize: 20, hasMore: false };
    if (endpoint === endpoints.getShortcuts) return { pinned: [], recentClients: [], recentSearches: [], savedFilters: [] };
    if (endpoint === endpoints.recordClientOpened) return { customerId: payload.customerId };
    throw new Error(`unexpected ${endpoint.path}`);
  }) as unknown as typeof request);
});
afterEach(() => {
  vi.unstubAllGlobals();
  requestMock.mockReset();
});

/** Types a word one letter at a time, as fast as a thumb does (well within the debounce). */
const typeInto = (box: HTMLElement, word: string) => {
  for (let end = 1; end <= word.length; end += 1) fireEvent.change(box, { target: { value: word.slice(0, end) } });
};

test('the list box and the search page search as you type, once typing pauses, with the same request', async () => {
  const list = renderPage(<ClientManageListPage />);
  await screen.findAllByTestId('client-row');
  requestMock.mockClear();
  typeInto(screen.getByRole('searchbox'), 'wong');
  // No Enter: the pause alone searches, once, for the whole word.
  await waitFor(() => expect(callsTo(endpoints.searchCustomers)).toHaveLength(1));
  const fromList = callsTo(endpoints.searchCustomers)[0];
  expect(fromList).toMatchObject({ keyword: 'wong' });
  list.unmount();

  queryClient.clear();
  requestMock.mockClear();
  renderPage(<ClientManageSearchPage />);
  const box = await screen.findByPlaceholderText(/姓名/);
  typeInto(box, 'wong');
  await waitFor(() => expect(callsTo(endpoints.searchCustomers)).toHaveLength(1));
  expect(callsTo(endpoints.searchCustomers)[0]).toEqual(fromList);
});

test('a recent search is saved when a result is opened, not while typing', async () => {
  renderPage(<ClientManageSearchPage />);
  typeInto(await screen.findByPlaceholderText(/姓名/), 'wong');
  const rows = await screen.findAllByTestId('client-row');
  expect(callsTo(endpoints.recordClientOpened)).toEqual([]);
  fireEvent.click(rows[1]!);
  await waitFor(() => expect(callsTo(endpoints.recordClientOpened)).toEqual([{ customerId: 2, search: 'wong' }]));
});
