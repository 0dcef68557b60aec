import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { Activity } from 'react';
import { act, screen, waitFor } from '@testing-library/react';
import type { CustomerListItem, CustomerStatus } from '@broker/contract';
import { endpoints, type WireEndpoint } from '../../shared/api/contract';
import { queryClient } from '../../shared/api/query-client';
import { request } from '../../shared/api/request';
import { customerListItem, renderPage, stubIntersectionObserver } from '../../testing/render-page';
import ClientManageListPage from './client-manage-list-page';
import { emptyFilters, useClientFilters } from './client-filters';
import { manageLocalesReady } from './manage-locales';

vi.mock('../../shared/api/request', () => ({ request: vi.fn() }));
const requestMock = vi.mocked(request);

/** One call to the server, answered when the test says (so answers can arrive in any order). */
interface Call {
  endpoint: WireEndpoint;
  payload: { statuses?: CustomerStatus[] };
  answer(data: unknown): void;
}
let calls: Call[] = [];

const filtered = (call: Call) => Boolean(call.payload.statuses?.length);
/** The one call not yet answered of `endpoint`, with or without the status filter. */
function pending(endpoint: WireEndpoint, withFilter: boolean): Call {
  const found = calls.filter((call) => call.endpoint === endpoint && filtered(call) === withFilter);
  expect(found).toHaveLength(1);
  calls = calls.filter((call) => call !== found[0]);
  return found[0]!;
}
const page = (list: CustomerListItem[]) => ({ list, total: list.length, pageNum: 1, pageSize: 20, hasMore: false });
const stat = (clients: number) => ({ clients, totalAssetsHkd: clients * 1000, active: 0, newThisMonth: 0, byChannel: [] });
const everyone = page(Array.from({ length: 20 }, (_, index) => customerListItem(index + 1)));
const dormant = page(Array.from({ length: 9 }, (_, index) => customerListItem(100 + index, { status: 'dormant' })));

beforeEach(async () => {
  await manageLocalesReady;
  queryClient.clear();
  useClientFilters.setState({ applied: emptyFilters() });
  stubIntersectionObserver();
  // jsdom scrolls nothing: new filters start the list from the top (scrollTo), here a no-op.
  Element.prototype.scrollTo ??= () => undefined;
  calls = [];
  requestMock.mockImplementation(((endpoint: WireEndpoint, payload: Call['payload']) => {
    if (endpoint === endpoints.getShortcuts)
      return Promise.resolve({ pinned: [], recentClients: [], recentSearches: [], savedFilters: [] });
    return new Promise((resolve) => calls.push({ endpoint, payload, answer: resolve }));
  }) as unknown as typeof request);
});
afterEach(() => {
  vi.unstubAllGlobals();
  requestMock.mockReset();
  useClientFilters.setState({ applied: emptyFilters() });
});

const listPage = (mode: 'visible' | 'hidden') => (
  <Activity mode={mode}>
    <ClientManageListPage />
  </Activity>
);
const shownStatuses = () => screen.queryAllByTestId('client-row').map((row) => row.querySelector('.ba-tag')!.className);

/**
 * The e2e's filter step, with the answers in the worst orders: the unfiltered list (refreshed just before the
 * manager left for the filter page) answers last, after the filtered rows and figures. The rows shown are the
 * filters' whatever the order: each answer belongs to the filters it was asked for.
 */
test.each([
  ['the filtered rows, then the figures, then the stale unfiltered rows', ['rows', 'stat', 'stale']],
  ['the figures, then the stale unfiltered rows, then the filtered rows', ['stat', 'stale', 'rows']],
  ['the stale unfiltered rows, then the figures, then the filtered rows', ['stale', 'stat', 'rows']],
] as const)('applied filters show their own rows when the answers arrive as %s', async (_, order) => {
  const view = renderPage(listPage('visible'));
  await waitFor(() => expect(calls).toHaveLength(2));
  act(() => {
    pending(endpoints.statCustomers, false).answer(stat(49));
    pending(endpoints.searchCustomers, false).answer(everyone);
  });
  expect(await screen.findAllByTestId('client-row')).toHaveLength(20);
  // A refresh of the unfiltered list is still on its way when the manager opens the filter page.
  act(() => void queryClient.refetchQueries({ queryKey: ['customer', 'list'] }));
  await waitFor(() => expect(calls).toHaveLength(1));
  const stale = pending(endpoints.searchCustomers, false);

  view.rerender(listPage('hidden'));
  act(() => useClientFilters.setState({ applied: { ...emptyFilters(), statuses: ['dormant'], hasHolding: true } }));
  view.rerender(listPage('visible'));
  await waitFor(() => expect(calls).toHaveLength(2));
  const answers = {
    rows: pending(endpoints.searchCustomers, true),
    stat: pending(endpoints.statCustomers, true),
  };
  for (const step of order) {
    await act(async () => {
      if (step === 'stale') stale.answer(everyone);
      else if (step === 'rows') answers.rows.answer(dormant);
      else answers.stat.answer(stat(9));
      await Promise.resolve();
    });
    // At no step do other filters' rows show under these filters (loading shows no rows).
    expect(shownStatuses().filter((tag) => !tag.includes('ba-tag--dormant'))).toEqual([]);
  }
  await waitFor(() => expect(screen.getByTestId('stat-clients').textContent).toBe('9'));
  await waitFor(() => expect(shownStatuses()).toHaveLength(9));
  expect(shownStatuses().every((tag) => tag.includes('ba-tag--dormant'))).toBe(true);
});
