import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { MotRankedRow } from '@broker/contract';
import { endpoints, type WireEndpoint } from '../../shared/api/contract';
import { queryClient } from '../../shared/api/query-client';
import { useAppSettings } from '../../shared/session/app-settings-store';
import { i18n } from '../../shared/i18n/i18n';
import { request } from '../../shared/api/request';
import { renderPage } from '../../testing/render-page';
import MotHomePage from './mot-home-page';
import { SnoozeSheet } from './mot-snooze-sheet';
import { EventRankCards } from './mot-rank-parts';

vi.mock('../../shared/api/request', () => ({ request: vi.fn() }));
const requestMock = vi.mocked(request);

// 2026-11-21 10:00 in Hong Kong.
const NOW = Date.parse('2026-11-21T02:00:00Z');

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
  await i18n.changeLanguage('zh-CN');
  queryClient.clear();
  useAppSettings.getState().reset();
  localStorage.clear();
});
afterEach(() => {
  requestMock.mockReset();
  vi.useRealTimers();
});

const rank = (score: number, overdueDays = 0): MotRankedRow['rank'] => ({
  score,
  typeWeight: 5,
  tier: 3,
  tierFactor: 2,
  totalAssetsHkd: 9_000_000,
  overdueDays,
  overdueFactor: 1 + overdueDays / 10,
  daysSinceContact: null,
  contactFactor: 2,
  raisedToday: overdueDays === 0,
});

const ranked = (position: number, eventId: number, rule: MotRankedRow['event']['rule'], score: number, overdueDays = 0): MotRankedRow => ({
  customerId: eventId * 10,
  customerNo: `C${eventId}`,
  nameCn: `客户${eventId}`,
  nameEn: `Client ${eventId}`,
  phone: null,
  position,
  event: { eventId, rule, status: 'new', dueDate: '2026-11-21', facts: {}, snoozed: position === 2 },
  rank: rank(score, overdueDays),
});

test("today's home shows the day's completion and the ranked list, most important first", async () => {
  const list = [ranked(1, 7, 'risk_expiry', 24, 2), ranked(2, 3, 'large_withdrawal', 11.7), ranked(3, 9, 'birthday', 1.5)];
  requestMock.mockImplementation((async (endpoint: WireEndpoint, payload: Record<string, unknown>) => {
    if (endpoint === endpoints.getTodoDates) return [{ date: '2026-11-21', count: 3, unseen: 3 }];
    if (endpoint === endpoints.getTodoTaskCount) return { total: 1, unseen: 1, byRule: [{ rule: 'risk_expiry', count: 1, unseen: 1 }] };
    if (endpoint === endpoints.getRankedToday) {
      const rows = payload.pageSize === 1 ? list.slice(0, 1) : list;
      return {
        list: rows,
        total: 3,
        pageNum: 1,
        pageSize: payload.pageSize,
        hasMore: false,
        progress: { date: '2026-11-21', handled: 2, total: 5 },
        byRule: [
          { rule: 'birthday', count: 1 },
          { rule: 'large_withdrawal', count: 1 },
          { rule: 'risk_expiry', count: 1 },
        ],
      };
    }
    throw new Error(`unexpected ${endpoint.path}`);
  }) as unknown as typeof request);
  renderPage(<MotHomePage />);

  const rankedList = await screen.findByTestId('mot-ranked-list');
  await waitFor(() => expect(within(rankedList).getAllByTestId('mot-ranked-row')).toHaveLength(3));
  const rows = within(rankedList).getAllByTestId('mot-ranked-row');
  expect(rows.map((row) => row.getAttribute('data-event-id'))).toEqual(['7', '3', '9']);
  expect(within(rows[0]!).getByText('逾期 2 天')).toBeTruthy();
  expect(within(rows[0]!).getByTestId('mot-ranked-score').textContent).toBe('24.0');
  expect(within(rows[1]!).getByTestId('mot-snoozed-mark').textContent).toBe('已延后');
  const progress = await screen.findByTestId('mot-day-progress');
  await waitFor(() => expect(progress.textContent).toContain('2 / 5'));
  // The hero's figure and the type filter count today's ranked day, not only what falls due today.
  expect(screen.getByTestId('mot-day-total').textContent).toBe('3');
  expect(screen.queryByTestId('mot-list')).toBeNull();
  // Ranked: no request for the name-ordered list of the day.
  expect(requestMock.mock.calls.some(([endpoint]) => endpoint === endpoints.getTodoClients)).toBe(false);
});

test('the snooze sheet needs a note for "other", then sends the day, the reason and the note', async () => {
  const onSnoozed = vi.fn();
  requestMock.mockResolvedValue({
    eventId: 9,
    dueDate: '2026-11-24',
    snooze: {
      snoozeId: 1,
      staffName: '陈伟文',
      snoozedAt: NOW,
      fromDate: '2026-11-21',
      toDate: '2026-11-24',
      reason: 'other',
      note: '客户出差',
    },
  });
  renderPage(<SnoozeSheet visible eventId={9} rule="birthday" customerName="陈大文" onClose={() => undefined} onSnoozed={onSnoozed} />);

  expect((await screen.findByTestId<HTMLInputElement>('mot-snooze-date')).value).toBe('2026-11-22');
  fireEvent.click(screen.getByTestId('mot-snooze-preset-in3Days'));
  expect(screen.getByTestId<HTMLInputElement>('mot-snooze-date').value).toBe('2026-11-24');
  fireEvent.click(screen.getByRole('radio', { name: '其他' }));
  fireEvent.click(screen.getByTestId('mot-snooze-submit'));
  expect(await screen.findByText('选“其他”时请写明原因')).toBeTruthy();
  expect(requestMock).not.toHaveBeenCalled();

  // A day outside tomorrow … 90 days is refused before sending, naming the rule.
  fireEvent.change(screen.getByTestId('mot-snooze-date'), { target: { value: '2026-11-21' } });
  fireEvent.change(screen.getByPlaceholderText(/补充说明/), { target: { value: ' 客户出差 ' } });
  fireEvent.click(screen.getByTestId('mot-snooze-submit'));
  expect(await screen.findByText('请选择明天到 90 天内的日期')).toBeTruthy();
  expect(requestMock).not.toHaveBeenCalled();

  fireEvent.change(screen.getByTestId('mot-snooze-date'), { target: { value: '2026-11-24' } });
  fireEvent.click(screen.getByTestId('mot-snooze-submit'));
  await waitFor(() => expect(onSnoozed).toHaveBeenCalledWith('2026-11-24'));
  expect(requestMock).toHaveBeenCalledWith(endpoints.snoozeEvent, { eventId: 9, until: '2026-11-24', reason: 'other', note: '客户出差' });
});

test('"why this rank" shows the score and each factor with its fact; the snoozes follow', async () => {
  requestMock.mockResolvedValue({
    rank: rank(24, 2),
    snoozes: [
      {
        snoozeId: 2,
        staffName: '陈伟文',
        snoozedAt: NOW,
        fromDate: '2026-11-19',
        toDate: '2026-11-21',
        reason: 'client_asked',
        note: null,
      },
    ],
  });
  await i18n.changeLanguage('en');
  renderPage(<EventRankCards eventId={7} rule="risk_expiry" />);
  expect((await screen.findByTestId('mot-rank-score')).textContent).toBe('24.0');
  const factors = screen.getByTestId('mot-rank-factors');
  expect(within(factors.querySelector('[data-factor=type]') as HTMLElement).getByText('Risk assessment expiring')).toBeTruthy();
  expect(within(factors).getByText('× 5.00')).toBeTruthy();
  expect(within(factors).getByText('Tier 3 (assets HKD 9,000,000)')).toBeTruthy();
  expect(within(factors).getByText('2 days')).toBeTruthy();
  expect(within(factors).getByText('Never contacted')).toBeTruthy();
  expect(within(factors).getAllByText('× 2.00')).toHaveLength(2);
  const snoozes = screen.getByTestId('mot-snoozes');
  expect(within(snoozes).getByText('2026-11-19 → 2026-11-21')).toBeTruthy();
  expect(within(snoozes).getByText('Client asked for later')).toBeTruthy();
  expect(requestMock).toHaveBeenCalledWith(endpoints.getEventRank, { eventId: 7 });
});
