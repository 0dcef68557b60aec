import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import type { MotEvent, ServiceRecord } from '@broker/contract';
import { endpoints, ErrorCode, type WireEndpoint } from '../../shared/api/contract';
import { ApiError } from '../../shared/api/api-error';
import { queryClient } from '../../shared/api/query-client';
import { request } from '../../shared/api/request';
import { i18n } from '../../shared/i18n/i18n';
import { useUser } from '../../shared/session/user-store';
import { readDrafts, writeDraft } from '../../shared/drafts/draft-store';
import { handedOver } from '../../shared/drafts/handover';
import { DRAFT_WRITE_DELAY_MS } from '../../shared/drafts/use-draft';
import { renderPage } from '../../testing/render-page';
import { signInAs } from '../../testing/fake-api';
import MotEventDetailPage from './mot-event-detail-page';

vi.mock('../../shared/api/request', () => ({ request: vi.fn() }));
const requestMock = vi.mocked(request);

const customer = {
  customerId: 5,
  customerNo: 'C00000005',
  nameCn: '陈大文',
  nameEn: 'CHAN Tai Man',
  phone: null,
  status: 'active',
  riskLevel: 3,
  openDate: '2020-05-04',
  totalAssetsHkd: 1_000_000,
  lastTradeDate: null,
};
const byColleague: ServiceRecord = {
  recordId: 80,
  customerId: 5,
  customerName: '陈大文',
  eventId: 9,
  rule: 'birthday',
  channel: 'wecom',
  note: '企业微信祝贺生日',
  outcome: null,
  servedAt: 0,
};
const eventOf = (handled: ServiceRecord | null): MotEvent => ({
  eventId: 9,
  rule: 'birthday',
  status: handled ? 'handled' : 'seen',
  dueDate: '2026-11-20',
  facts: { date: '2026-11-20' },
  customerId: 5,
  createdAt: 0,
  seenAt: 0,
  handledAt: handled ? 1 : null,
  serviceRecord: handled,
});

let handledBy: ServiceRecord | null = null;
function serve(onHandle: () => unknown = () => Promise.reject(new Error('not sent'))) {
  requestMock.mockImplementation(async (endpoint: WireEndpoint) => {
    if (endpoint === endpoints.getTodoTaskDetail) return { event: eventOf(handledBy), customer };
    if (endpoint === endpoints.handleEvent) return onHandle();
    throw new ApiError(ErrorCode.NOT_FOUND, 'not in this test', endpoint.path);
  });
}

function Where() {
  const location = useLocation();
  return <output data-testid="where">{`${location.pathname}${location.search}`}</output>;
}
const open = () =>
  renderPage(
    <>
      <Routes>
        <Route path="/mot/eventDetail" element={<MotEventDetailPage />} />
        <Route path="*" element={null} />
      </Routes>
      <Where />
    </>,
    { path: '/mot/eventDetail?eventId=9' },
  );

const isNote = (data: unknown): data is { note: string } => typeof (data as { note?: unknown }).note === 'string';

beforeEach(async () => {
  await i18n.changeLanguage('zh-CN');
  queryClient.clear();
  handledBy = null;
  signInAs('chanwaiman');
});
afterEach(() => {
  requestMock.mockReset();
  useUser.getState().clearToken();
});

test('a note whose save met the event handled elsewhere is shown, and becomes a contact record for the client', async () => {
  serve(() => {
    handledBy = byColleague;
    throw new ApiError(ErrorCode.CONFLICT, 'eventId: event 9 has already been handled', endpoints.handleEvent.path);
  });
  open();
  fireEvent.click(await screen.findByTestId('mot-handle-open'));
  fireEvent.change(await screen.findByPlaceholderText(/记录与客户沟通的内容/), { target: { value: '电话祝贺生日，客户约下周面谈' } });
  fireEvent.click(screen.getByRole('button', { name: '提交' }));

  const left = await screen.findByTestId('mot-handled-meanwhile');
  expect(screen.getByTestId('mot-left-note').textContent).toBe('电话祝贺生日，客户约下周面谈');
  fireEvent.click(screen.getByTestId('mot-left-save'));
  await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/client/contact/new?customerId=5&channel=phone'));
  expect(handedOver('contactNew:5')).toEqual({ note: '电话祝贺生日，客户约下周面谈' });
  expect(readDrafts('motHandle:9', isNote).mine).toBeNull();
  expect(left.isConnected).toBe(false);
});

test('opened after the event was handled elsewhere: a note left from before is shown, until the user lets it go', async () => {
  handledBy = byColleague;
  writeDraft('motHandle:9', { channel: 'phone', note: '留言请客户回电', outcome: '' });
  writeDraft('motSnooze:9', { until: '2026-11-23', reason: 'other', note: '客户出差，下周再联系' });
  serve();
  open();
  expect((await screen.findByTestId('mot-left-note')).textContent).toBe('留言请客户回电\n客户出差，下周再联系');
  fireEvent.click(screen.getByTestId('mot-left-discard'));
  expect(screen.queryByTestId('mot-handled-meanwhile')).toBeNull();
  expect(readDrafts('motHandle:9', isNote)).toEqual({ mine: null, others: [] });
  expect(readDrafts('motSnooze:9', isNote)).toEqual({ mine: null, others: [] });
});

test('a handling whose own save went through (its answer lost) is the record: nothing is offered twice', async () => {
  handledBy = { ...byColleague, note: '留言请客户回电' };
  writeDraft('motHandle:9', { channel: 'phone', note: '留言请客户回电 ', outcome: '' }, { submitting: true });
  serve();
  open();
  expect(await screen.findByTestId('mot-event')).toBeTruthy();
  expect(screen.queryByTestId('mot-handled-meanwhile')).toBeNull();
  expect(readDrafts('motHandle:9', isNote).mine).toBeNull();
});

test('a save the session ended under stays marked unfinished, so the sheet reopens with it after sign-in', async () => {
  serve(() => {
    throw new ApiError(ErrorCode.LOGIN_EXPIRED, 'the session has expired', endpoints.handleEvent.path);
  });
  open();
  fireEvent.click(await screen.findByTestId('mot-handle-open'));
  fireEvent.change(await screen.findByPlaceholderText(/记录与客户沟通的内容/), { target: { value: '电话祝贺生日' } });
  fireEvent.click(screen.getByRole('button', { name: '提交' }));
  await waitFor(() => expect(requestMock.mock.calls.some(([endpoint]) => endpoint === endpoints.handleEvent)).toBe(true));
  // Past the draft's write delay: a refusal's debounced keep would have rewritten the draft by now.
  await new Promise((resolve) => setTimeout(resolve, DRAFT_WRITE_DELAY_MS + 200));
  expect(readDrafts('motHandle:9', isNote).mine).toMatchObject({ data: { note: '电话祝贺生日' }, submitting: true });
});
