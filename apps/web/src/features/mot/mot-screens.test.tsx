import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { MotTodoRow } from '@broker/contract';
import { endpoints, type WireEndpoint } from '../../shared/api/contract';
import { queryClient } from '../../shared/api/query-client';
import { useAppSettings } from '../../shared/session/app-settings-store';
import { i18n } from '../../shared/i18n/i18n';
import { request } from '../../shared/api/request';
import { renderPage } from '../../testing/render-page';
import { HandleSheet } from './handle-sheet';
import MotHomePage from './mot-home-page';

vi.mock('../../shared/api/request', () => ({ request: vi.fn() }));
const requestMock = vi.mocked(request);

beforeEach(async () => {
  await i18n.changeLanguage('zh-CN');
  queryClient.clear();
  useAppSettings.getState().reset();
});
afterEach(() => requestMock.mockReset());

test('the handle sheet asks for a note before it sends channel, note and outcome', async () => {
  const onHandled = vi.fn();
  requestMock.mockResolvedValue({
    recordId: 1,
    customerId: 5,
    customerName: '陈大文',
    eventId: 9,
    rule: 'birthday',
    channel: 'meeting',
    note: '面谈祝贺生日',
    outcome: 'meeting_booked',
    servedAt: 0,
  });
  renderPage(
    <HandleSheet
      visible
      eventId={9}
      rule="birthday"
      customerId={5}
      customerName="陈大文"
      onClose={() => undefined}
      onHandled={onHandled}
    />,
  );

  fireEvent.click(screen.getByRole('button', { name: '提交' }));
  expect(await screen.findByText('请填写服务内容')).toBeTruthy();
  expect(requestMock).not.toHaveBeenCalled();

  fireEvent.click(screen.getByRole('radio', { name: /面谈/ }));
  fireEvent.change(screen.getByPlaceholderText(/记录与客户沟通的内容/), { target: { value: '  面谈祝贺生日 ' } });
  fireEvent.click(screen.getByRole('button', { name: '已约面谈' }));
  // The chip's words in the box, its code on the wire (issue 22 §4): a reader in another language sees theirs.
  expect(screen.getByPlaceholderText<HTMLInputElement>(/客户有意追加投资/).value).toBe('已约面谈');
  fireEvent.click(screen.getByRole('button', { name: '提交' }));

  await waitFor(() => expect(onHandled).toHaveBeenCalledTimes(1));
  expect(requestMock).toHaveBeenCalledWith(endpoints.handleEvent, {
    eventId: 9,
    channel: 'meeting',
    note: '面谈祝贺生日',
    outcome: 'meeting_booked',
  });
});

const row = (customerId: number, eventIds: number[], unseen: boolean): MotTodoRow => ({
  customerId,
  customerNo: `C${customerId}`,
  nameCn: `客户${customerId}`,
  nameEn: `Client ${customerId}`,
  phone: null,
  unseen,
  events: eventIds.map((eventId) => ({
    eventId,
    rule: 'birthday',
    status: unseen ? 'new' : 'seen',
    dueDate: '2026-11-21',
    facts: { date: '2026-11-25' },
  })),
});

function serveHome(fold: { value: boolean }) {
  requestMock.mockImplementation((async (endpoint: WireEndpoint, payload: Record<string, unknown>) => {
    if (endpoint === endpoints.getTodoDates) return [{ date: '2026-11-21', count: 3, unseen: 1 }];
    if (endpoint === endpoints.getTodoTaskCount) return { total: 3, unseen: 1, byRule: [{ rule: 'birthday', count: 3, unseen: 1 }] };
    if (endpoint === endpoints.getRankedToday)
      return {
        list: [],
        total: 0,
        pageNum: 1,
        pageSize: 20,
        hasMore: false,
        progress: { date: '2026-11-20', handled: 0, total: 0 },
        byRule: [],
      };
    if (endpoint === endpoints.setFold) {
      fold.value = payload.isFold as boolean;
      return fold.value;
    }
    if (endpoint === endpoints.getTodoClients) {
      const list = fold.value
        ? [row(1, [11, 12], true), row(2, [21], false)]
        : [row(1, [11], true), row(1, [12], false), row(2, [21], false)];
      return { list, total: list.length, pageNum: 1, pageSize: 20, hasMore: false, fold: fold.value };
    }
    throw new Error(`unexpected ${endpoint.path}`);
  }) as unknown as typeof request);
}

test('the home lists one row per event, or per client once folded; unseen ones are marked', async () => {
  // Today (2026-11-20) is the ranked day (mot-rank.test.tsx); the day after lists by client.
  vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-11-20T02:00:00Z') });
  const fold = { value: false };
  serveHome(fold);
  renderPage(<MotHomePage />);
  fireEvent.click(await within(await screen.findByTestId('mot-dates')).findByText('11-21'));

  const list = await screen.findByTestId('mot-list');
  await waitFor(() => expect(within(list).getAllByTestId('mot-row')).toHaveLength(3));
  expect(list.getAttribute('data-fold')).toBe('unfolded');
  expect(within(list).getAllByTestId('mot-unseen-mark')).toHaveLength(1);
  expect(within(screen.getByTestId('mot-dates')).getByText('今天')).toBeTruthy();

  fireEvent.click(screen.getByTestId('mot-fold-on'));
  await waitFor(() => expect(screen.getByTestId('mot-list').getAttribute('data-fold')).toBe('folded'));
  const rows = within(screen.getByTestId('mot-list')).getAllByTestId('mot-row');
  expect(rows).toHaveLength(2);
  expect(within(rows[0]!).getAllByTestId('mot-event-link')).toHaveLength(2);
  expect(useAppSettings.getState().motFold).toBe(true);
  expect(requestMock).toHaveBeenCalledWith(endpoints.setFold, { isFold: true });
  vi.useRealTimers();
});

test('the date strip never skips a day with events: it asks for 275 days back to 90 ahead and shows each such day', async () => {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-11-20T02:00:00Z') });
  const fold = { value: false };
  serveHome(fold);
  // Days with events far outside the steady week around today (11-17 … 11-27): overdue and snoozed ahead.
  const far = [
    { date: '2026-02-18', count: 1, unseen: 0 },
    { date: '2026-10-01', count: 2, unseen: 1 },
    { date: '2026-11-21', count: 3, unseen: 1 },
    { date: '2027-02-17', count: 1, unseen: 0 },
  ];
  const serve = requestMock.getMockImplementation()!;
  requestMock.mockImplementation(((endpoint: WireEndpoint, payload: Record<string, unknown>) =>
    endpoint === endpoints.getTodoDates ? Promise.resolve(far) : serve(endpoint, payload)) as unknown as typeof request);
  renderPage(<MotHomePage />);
  const strip = await screen.findByTestId('mot-dates');
  await waitFor(() => expect(strip.querySelector('[data-date="2026-02-18"]')).not.toBeNull());
  expect(requestMock).toHaveBeenCalledWith(endpoints.getTodoDates, { dateFrom: '2026-02-18', dateTo: '2027-02-18' });
  const days = [...strip.querySelectorAll('[data-date]')].map((chip) => chip.getAttribute('data-date'));
  for (const { date } of far) expect(days).toContain(date);
  // In order, and the steady week is there too.
  expect(days).toEqual([...days].sort());
  expect(days).toContain('2026-11-17');
  expect(days).toContain('2026-11-27');
  expect(strip.querySelector('[data-date="2026-10-01"] [data-testid="mot-date-count"]')!.textContent).toBe('2');
  vi.useRealTimers();
});
