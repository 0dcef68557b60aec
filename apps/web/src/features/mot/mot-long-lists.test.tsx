import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import type { MotTodoRow } from '@broker/contract';
import { endpoints, type WireEndpoint } from '../../shared/api/contract';
import { queryClient } from '../../shared/api/query-client';
import { useAppSettings } from '../../shared/session/app-settings-store';
import { i18n } from '../../shared/i18n/i18n';
import { request } from '../../shared/api/request';
import { WINDOW_FROM } from '../../shared/ui/long-list';
import { layOutLikeAPhone, scrollPageTo } from '../../testing/phone-layout';
import MotHomePage from './mot-home-page';

vi.mock('../../shared/api/request', () => ({ request: vi.fn() }));
const requestMock = vi.mocked(request);

const ROW_HEIGHT = 84;
const EVENTS = 120;

layOutLikeAPhone(ROW_HEIGHT);

const eventRow = (eventId: number): MotTodoRow => ({
  customerId: eventId,
  customerNo: `C${eventId}`,
  nameCn: `客户${eventId}`,
  nameEn: `Client ${eventId}`,
  phone: null,
  unseen: false,
  events: [{ eventId, rule: 'birthday', status: 'seen', dueDate: '2026-11-21', facts: { date: '2026-11-25' } }],
});

beforeEach(async () => {
  await i18n.changeLanguage('zh-CN');
  queryClient.clear();
  useAppSettings.getState().reset();
  requestMock.mockImplementation(async (endpoint: WireEndpoint) => {
    if (endpoint === endpoints.getTodoDates) return [{ date: '2026-11-21', count: EVENTS, unseen: 0 }];
    if (endpoint === endpoints.getTodoTaskCount)
      return { total: EVENTS, unseen: 0, byRule: [{ rule: 'birthday', count: EVENTS, unseen: 0 }] };
    if (endpoint === endpoints.getTodoClients) {
      const list = Array.from({ length: EVENTS }, (_, index) => eventRow(index + 1));
      return { list, total: EVENTS, pageNum: 1, pageSize: EVENTS, hasMore: false, fold: false };
    }
    if (endpoint === endpoints.getRankedToday)
      return {
        list: [],
        total: 0,
        pageNum: 1,
        pageSize: 1,
        hasMore: false,
        progress: { date: '2026-11-21', handled: 0, total: 0 },
        byRule: [],
      };
    throw new Error(`unexpected ${endpoint.path}`);
  });
});
afterEach(() => requestMock.mockReset());

const mountedEventIds = () =>
  within(screen.getByTestId('mot-list'))
    .queryAllByTestId('mot-row')
    .map((row) => Number(row.getAttribute('data-event-id')));

test('the MOT to-do list of 120 events mounts only the rows on screen, and scrolling swaps them', async () => {
  render(
    <QueryClientProvider client={queryClient}>
      {/* Today's list by client (today's default, the ranked list, windows the same way). */}
      <MemoryRouter initialEntries={['/mot/home?view=day']}>
        <MotHomePage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  const list = await screen.findByTestId('mot-list');
  // Windowed (the virtualizer loads lazily): the list is as tall as all its rows, but mounts a screenful or so.
  await waitFor(() => expect(list.querySelector('.ba-vlist')!.getAttribute('style')).toContain(`${EVENTS * ROW_HEIGHT}px`));
  const first = mountedEventIds();
  expect(first[0]).toBe(1);
  expect(first.length).toBeLessThan(WINDOW_FROM);
  expect(first).not.toContain(EVENTS);

  const scroller = list.closest<HTMLElement>('.ba-page__scroll')!;
  act(() => scrollPageTo(scroller, 80 * ROW_HEIGHT));
  await waitFor(() => expect(mountedEventIds()).toContain(81));
  expect(mountedEventIds()).not.toContain(1);
  expect(mountedEventIds().length).toBeLessThan(WINDOW_FROM);
}, 15_000);
