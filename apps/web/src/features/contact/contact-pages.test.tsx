import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { CONTACT_REASON_MAX, type ContactRecord, type MotEvent } from '@broker/contract';
import { endpoints, ErrorCode, type WireEndpoint } from '../../shared/api/contract';
import { ApiError, ClientErrorCode } from '../../shared/api/api-error';
import { queryClient } from '../../shared/api/query-client';
import { request } from '../../shared/api/request';
import { i18n } from '../../shared/i18n/i18n';
import { useUser } from '../../shared/session/user-store';
import { sweepDrafts } from '../../shared/drafts/draft-owner';
import { handOverTyped } from '../../shared/drafts/handover';
import { signInAs } from '../../testing/fake-api';
import ContactNewPage from './contact-new-page';
import ContactRecordPage from './contact-record-page';
import ContactLogPage from './contact-log-page';

vi.mock('../../shared/api/request', () => ({ request: vi.fn() }));
const requestMock = vi.mocked(request);

// 2026-11-20 10:00 in Hong Kong.
const NOW = Date.UTC(2026, 10, 20, 2, 0);

const customer = {
  customerId: 3,
  customerNo: 'C00000003',
  nameCn: '陈大文',
  nameEn: 'CHAN Tai Man',
  phone: '+852 9123 ****',
  status: 'active',
  riskLevel: 3,
  openDate: '2020-05-04',
  totalAssetsHkd: 1_000_000,
  lastTradeDate: null,
};

const event = (eventId: number, status: MotEvent['status'], rule: MotEvent['rule'] = 'birthday'): MotEvent => ({
  eventId,
  rule,
  status,
  dueDate: '2026-11-20',
  facts: {},
  customerId: 3,
  createdAt: NOW - 86_400_000,
  seenAt: null,
  handledAt: null,
  serviceRecord: null,
});

const record = (overrides: Partial<ContactRecord> = {}): ContactRecord => ({
  recordId: 70,
  threadId: 70,
  version: 1,
  latest: true,
  customerId: 3,
  customerName: '陈大文',
  staffId: 1,
  staffName: '陈伟文',
  channel: 'phone',
  purpose: 'care',
  note: '生日问候，客户很高兴',
  outcome: null,
  nextStep: null,
  nextStepDate: null,
  suitability: null,
  events: [{ eventId: 11, rule: 'birthday', dueDate: '2026-11-20' }],
  followsRecordId: null,
  followUpEventId: null,
  servedAt: NOW - 60_000,
  createdAt: NOW,
  locksAt: NOW + 24 * 3_600_000,
  locked: false,
  correctionReason: null,
  edits: 0,
  ...overrides,
});

type Handler = (payload: Record<string, unknown>) => unknown;

function serve(handlers: Map<WireEndpoint, Handler>) {
  requestMock.mockImplementation((async (endpoint: WireEndpoint, payload: Record<string, unknown>) => {
    const handler = handlers.get(endpoint);
    if (!handler) throw new Error(`unexpected ${endpoint.path}`);
    return handler(payload);
  }) as unknown as typeof request);
}

const clientHistory = () => ({
  list: [event(11, 'seen'), event(12, 'new', 'id_expiry'), event(9, 'handled')],
  total: 3,
  pageNum: 1,
  pageSize: 50,
  hasMore: false,
  customer,
});

function Where() {
  const location = useLocation();
  return <output data-testid="where">{`${location.pathname}${location.search}`}</output>;
}

const open = (entry: string) =>
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[entry]}>
        <Routes>
          <Route path="/client/contact/new" element={<ContactNewPage />} />
          <Route path="/client/contact/record" element={<ContactRecordPage />} />
          <Route path="/client/contact/log" element={<ContactLogPage />} />
        </Routes>
        <Where />
      </MemoryRouter>
    </QueryClientProvider>,
  );

const typeNote = (text: string) => fireEvent.change(screen.getByPlaceholderText(/记录与客户沟通的要点/), { target: { value: text } });
const callsOf = (target: WireEndpoint) => requestMock.mock.calls.filter(([endpoint]) => endpoint === target).map(([, payload]) => payload);
const addCalls = () => callsOf(endpoints.addContactRecord);
const reviseCalls = () => callsOf(endpoints.reviseContactRecord);

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
  await i18n.changeLanguage('zh-CN');
  queryClient.clear();
  signInAs('chanwaiman');
});
afterEach(() => {
  requestMock.mockReset();
  sweepDrafts(null);
  useUser.getState().clearToken();
  vi.useRealTimers();
});

describe('logging a contact', () => {
  test('the link prefills channel and event; the record goes with its event and a request id; then the record shows', async () => {
    const saved = record({ channel: 'wecom' });
    serve(
      new Map<WireEndpoint, Handler>([
        [endpoints.getClientHistory, clientHistory],
        [endpoints.getTodoTaskDetail, () => ({ event: event(11, 'seen'), customer })],
        [endpoints.addContactRecord, () => saved],
        [endpoints.getContactRecord, () => ({ record: saved, versions: [] })],
      ]),
    );
    open('/client/contact/new?customerId=3&channel=wecom&eventId=11');

    expect(await screen.findByText('陈大文')).toBeTruthy();
    expect(screen.getByRole('radio', { name: /企业微信/ }).getAttribute('aria-checked')).toBe('true');
    // Suggested from the birthday event the contact serves.
    expect(screen.getByRole('radio', { name: '关怀问候' }).getAttribute('aria-checked')).toBe('true');
    const events = within(screen.getByTestId('contact-events'));
    expect(events.getAllByRole('checkbox')).toHaveLength(2);
    expect(events.getByRole('checkbox', { name: /生日/ }).getAttribute('aria-checked')).toBe('true');
    expect(events.getByRole('checkbox', { name: /证件到期/ }).getAttribute('aria-checked')).toBe('false');

    fireEvent.click(screen.getByTestId('contact-save'));
    expect(await screen.findByTestId('contact-error-note')).toBeTruthy();
    expect(addCalls()).toHaveLength(0);

    typeNote('  生日问候，客户很高兴 ');
    fireEvent.click(screen.getByTestId('contact-save'));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/client/contact/record?recordId=70'));
    expect(addCalls()).toEqual([
      expect.objectContaining({
        customerId: 3,
        channel: 'wecom',
        purpose: 'care',
        note: '生日问候，客户很高兴',
        eventIds: [11],
        servedAt: NOW,
        requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      }),
    ]);
  });

  test('a refused or lost attempt keeps everything typed, and sending again reuses its request id (the server writes it once)', async () => {
    let attempts = 0;
    serve(
      new Map<WireEndpoint, Handler>([
        [endpoints.getClientHistory, clientHistory],
        [
          endpoints.addContactRecord,
          () => {
            attempts += 1;
            if (attempts === 1) throw new ApiError(ClientErrorCode.NETWORK, '网络异常', '/api/contact/record/add');
            throw new ApiError(ErrorCode.VALIDATION, 'servedAt: must not be before the account opened', '/api/contact/record/add');
          },
        ],
      ]),
    );
    open('/client/contact/new?customerId=3');
    await screen.findByText('陈大文');
    typeNote('客户询问美股开户');
    fireEvent.click(screen.getByTestId('contact-save'));
    await waitFor(() => expect(attempts).toBe(1));
    fireEvent.click(screen.getByTestId('contact-save'));
    expect(await screen.findByTestId('contact-refusal')).toBeTruthy();
    expect(screen.getByTestId('contact-refusal').textContent).toContain('servedAt');
    const [first, second] = addCalls() as { requestId: string; note: string }[];
    expect(second!.requestId).toBe(first!.requestId);
    expect(second!.note).toBe('客户询问美股开户');
    expect(screen.getByPlaceholderText<HTMLTextAreaElement>(/记录与客户沟通的要点/).value).toBe('客户询问美股开户');
  });

  test('after a crash mid-save the form comes back as typed, and the retry carries the same request id', async () => {
    serve(
      new Map<WireEndpoint, Handler>([
        [endpoints.getClientHistory, clientHistory],
        // The answer never comes: the tab is closed with the save in flight.
        [endpoints.addContactRecord, () => new Promise(() => undefined)],
      ]),
    );
    const first = open('/client/contact/new?customerId=3');
    await screen.findByText('陈大文');
    typeNote('与客户面谈，讨论退休规划');
    fireEvent.click(screen.getByRole('radio', { name: /面谈/ }));
    fireEvent.click(screen.getByTestId('contact-save'));
    await waitFor(() => expect(addCalls()).toHaveLength(1));
    first.unmount();

    queryClient.clear();
    open('/client/contact/new?customerId=3');
    expect(await screen.findByTestId('draft-notice')).toBeTruthy();
    expect(screen.getByPlaceholderText<HTMLTextAreaElement>(/记录与客户沟通的要点/).value).toBe('与客户面谈，讨论退休规划');
    expect(screen.getByRole('radio', { name: /面谈/ }).getAttribute('aria-checked')).toBe('true');
    fireEvent.click(screen.getByTestId('contact-save'));
    await waitFor(() => expect(addCalls()).toHaveLength(2));
    const [before, after] = addCalls() as { requestId: string }[];
    expect(after!.requestId).toBe(before!.requestId);
  });

  test("what was typed in MOT's handle sheet comes along into the full form", async () => {
    serve(
      new Map<WireEndpoint, Handler>([
        [endpoints.getClientHistory, clientHistory],
        [endpoints.getTodoTaskDetail, () => ({ event: event(12, 'new', 'id_expiry'), customer })],
      ]),
    );
    handOverTyped('contactNew:3', { note: '提醒客户更新证件', outcome: '' });
    open('/client/contact/new?customerId=3&eventId=12&channel=phone');
    await screen.findByText('陈大文');
    expect(screen.getByPlaceholderText<HTMLTextAreaElement>(/记录与客户沟通的要点/).value).toBe('提醒客户更新证件');
    expect(screen.getByRole('radio', { name: '文件续期' }).getAttribute('aria-checked')).toBe('true');
  });

  test('an event handled before the form opened (a note carried over from MOT) is not linked; the page says so and keeps the note', async () => {
    serve(
      new Map<WireEndpoint, Handler>([
        [endpoints.getClientHistory, clientHistory],
        [endpoints.getTodoTaskDetail, () => ({ event: event(9, 'handled'), customer })],
      ]),
    );
    handOverTyped('contactNew:3', { note: '祝贺生日，客户约下周面谈', outcome: '' });
    open('/client/contact/new?customerId=3&eventId=9&channel=phone');
    expect((await screen.findByTestId('contact-notice')).textContent).toBe(
      '链接中的事件已被处理，未关联；您填写的内容仍会保存为一条联系记录',
    );
    expect(screen.getByPlaceholderText<HTMLTextAreaElement>(/记录与客户沟通的要点/).value).toBe('祝贺生日，客户约下周面谈');
    expect(within(screen.getByTestId('contact-events')).queryByRole('checkbox', { checked: true })).toBeNull();
  });

  test('an event of another client named by the link is not linked, and the page says so', async () => {
    serve(
      new Map<WireEndpoint, Handler>([
        [endpoints.getClientHistory, clientHistory],
        [endpoints.getTodoTaskDetail, () => ({ event: { ...event(99, 'new'), customerId: 4 }, customer: { ...customer, customerId: 4 } })],
      ]),
    );
    open('/client/contact/new?customerId=3&eventId=99&channel=fax');
    const notices = await screen.findAllByTestId('contact-notice');
    expect(notices.map((notice) => notice.textContent)).toEqual([
      '链接中以下内容无法使用，已忽略：联系方式',
      '链接中的事件不属于该客户，未关联',
    ]);
    expect(within(screen.getByTestId('contact-events')).queryByRole('checkbox', { checked: true })).toBeNull();
  });
});

describe('a record: edit before the lock, correct after it', () => {
  test('before the lock: an edit, sent without a reason', async () => {
    const current = record();
    serve(
      new Map<WireEndpoint, Handler>([
        [endpoints.getContactRecord, () => ({ record: current, versions: [] })],
        [endpoints.reviseContactRecord, (payload) => ({ ...current, note: payload.note as string })],
      ]),
    );
    open('/client/contact/record?recordId=70');
    expect((await screen.findByTestId('contact-lock')).getAttribute('data-locked')).toBe('false');
    fireEvent.click(screen.getByTestId('contact-edit'));
    typeNote('生日问候，客户很高兴，约下月饮茶');
    fireEvent.click(screen.getByTestId('contact-save'));
    await waitFor(() => expect(reviseCalls()).toHaveLength(1));
    const [payload] = reviseCalls();
    expect(payload).not.toHaveProperty('correctionReason');
    expect(payload).toMatchObject({ recordId: 70, edits: 0, note: '生日问候，客户很高兴，约下月饮茶' });
  });

  test('after the lock: a correction, which needs a reason; earlier versions are listed', async () => {
    const current = record({ recordId: 71, version: 2, locked: true, locksAt: NOW - 1, correctionReason: '时间记错' });
    const earlier = record({ latest: false, locked: true, locksAt: NOW - 1 });
    serve(
      new Map<WireEndpoint, Handler>([
        [endpoints.getContactRecord, () => ({ record: current, versions: [earlier] })],
        [endpoints.reviseContactRecord, (payload) => ({ ...current, recordId: 72, version: 3, note: payload.note as string })],
      ]),
    );
    open('/client/contact/record?recordId=70');
    expect((await screen.findByTestId('contact-lock')).getAttribute('data-locked')).toBe('true');
    expect(within(screen.getByTestId('contact-versions')).getAllByTestId('contact-version')).toHaveLength(1);
    expect(screen.queryByTestId('contact-edit')).toBeNull();

    fireEvent.click(screen.getByTestId('contact-correct'));
    typeNote('生日问候（电话），客户很高兴');
    fireEvent.click(screen.getByTestId('contact-save'));
    expect(await screen.findByTestId('contact-error-correctionReason')).toBeTruthy();
    expect(reviseCalls()).toHaveLength(0);
    // Past its limit the reason's counter turns red, as every counted field's does.
    fireEvent.change(screen.getByPlaceholderText(/联系时间记错/), { target: { value: '长'.repeat(CONTACT_REASON_MAX + 1) } });
    expect(screen.getByText(`${CONTACT_REASON_MAX + 1}/${CONTACT_REASON_MAX}`).className).toContain('ba-cfield__count--over');

    fireEvent.change(screen.getByPlaceholderText(/联系时间记错/), { target: { value: '补充联系方式' } });
    fireEvent.click(screen.getByTestId('contact-save'));
    await waitFor(() => expect(reviseCalls()).toHaveLength(1));
    expect(reviseCalls()[0]).toMatchObject({ recordId: 71, correctionReason: '补充联系方式', note: '生日问候（电话），客户很高兴' });
  });

  test('a conflict: their change alone is taken, a field both changed is chosen, nothing typed is lost', async () => {
    let current = record();
    serve(
      new Map<WireEndpoint, Handler>([
        [endpoints.getContactRecord, () => ({ record: current, versions: [] })],
        [
          endpoints.reviseContactRecord,
          (payload) => {
            if (payload.edits === 0) {
              current = record({ outcome: '客户约了面谈', note: '生日问候，客户提到想加仓', edits: 1 });
              throw new ApiError(ErrorCode.CONFLICT, '记录已被更改', '/api/contact/record/revise');
            }
            return { ...current, note: payload.note as string, edits: 2 };
          },
        ],
      ]),
    );
    open('/client/contact/record?recordId=70');
    fireEvent.click(await screen.findByTestId('contact-edit'));
    typeNote('生日问候，送了礼篮');
    fireEvent.click(screen.getByTestId('contact-save'));
    const conflict = await screen.findByTestId('edit-conflict');
    expect(screen.getByTestId<HTMLButtonElement>('contact-save').disabled).toBe(true);
    // The note both changed, side by side; the outcome only they changed, named.
    const note = within(conflict).getByTestId('merge-field');
    expect(note.getAttribute('data-field')).toBe('note');
    expect(within(note).getByRole('radio', { name: /已保存的版本.*生日问候，客户提到想加仓/ })).toBeTruthy();
    expect(within(note).getByRole('radio', { name: /您的修改.*生日问候，送了礼篮/ })).toBeTruthy();
    expect(within(conflict).getByTestId('merge-taken').textContent).toContain('结果');
    expect(screen.getByTestId<HTMLButtonElement>('merge-apply').disabled).toBe(true);
    expect(screen.getByPlaceholderText<HTMLTextAreaElement>(/记录与客户沟通的要点/).value).toBe('生日问候，送了礼篮');

    fireEvent.click(within(note).getByRole('radio', { name: '两者都保留' }));
    fireEvent.click(screen.getByTestId('merge-apply'));
    expect(screen.queryByTestId('edit-conflict')).toBeNull();
    expect(screen.getByTestId('merge-notice').textContent).toContain('结果');
    expect(screen.getByPlaceholderText<HTMLInputElement>(/一句话结果/).value).toBe('客户约了面谈');
    expect(screen.getByPlaceholderText<HTMLTextAreaElement>(/记录与客户沟通的要点/).value).toBe(
      '生日问候，客户提到想加仓\n生日问候，送了礼篮',
    );
    fireEvent.click(screen.getByTestId('contact-save'));
    await waitFor(() => expect(reviseCalls()).toHaveLength(2));
    // Against the version as it stands now (its in-place edits counted), their outcome kept.
    expect(reviseCalls()[1]).toMatchObject({
      recordId: 70,
      edits: 1,
      outcome: '客户约了面谈',
      note: '生日问候，客户提到想加仓\n生日问候，送了礼篮',
    });
  });
  test('a correction met by a version saved meanwhile and not locked yet: the change edits it in place, and the reason typed moves into the note in sight', async () => {
    let current = record({ locked: true, locksAt: NOW - 1 });
    serve(
      new Map<WireEndpoint, Handler>([
        [endpoints.getContactRecord, () => ({ record: current, versions: [] })],
        [
          endpoints.reviseContactRecord,
          (payload) => {
            if (payload.recordId === 70) {
              // Another tab corrected it first: version 2, just written, editable in place for a day.
              current = record({
                recordId: 71,
                version: 2,
                note: '生日问候（电话）',
                correctionReason: '补充方式',
                locksAt: NOW + 3_600_000,
              });
              throw new ApiError(ErrorCode.CONFLICT, 'recordId: the record changed meanwhile', '/api/contact/record/revise');
            }
            return { ...current, note: payload.note as string, edits: 1 };
          },
        ],
      ]),
    );
    open('/client/contact/record?recordId=70');
    fireEvent.click(await screen.findByTestId('contact-correct'));
    typeNote('生日问候，客户很高兴，约下月饮茶');
    fireEvent.change(screen.getByPlaceholderText(/联系时间记错/), { target: { value: '补充后续安排' } });
    fireEvent.click(screen.getByTestId('contact-save'));
    const conflict = await screen.findByTestId('edit-conflict');
    // While the choice is open, the reason typed is still there.
    expect(screen.getByPlaceholderText<HTMLTextAreaElement>(/联系时间记错/).value).toBe('补充后续安排');
    fireEvent.click(within(conflict).getByRole('radio', { name: /您的修改/ }));
    fireEvent.click(screen.getByTestId('merge-apply'));

    expect(screen.getByTestId('contact-reason-moved')).toBeTruthy();
    expect(screen.queryByPlaceholderText(/联系时间记错/)).toBeNull();
    const note = '生日问候，客户很高兴，约下月饮茶\n（修改原因：补充后续安排）';
    expect(screen.getByPlaceholderText<HTMLTextAreaElement>(/记录与客户沟通的要点/).value).toBe(note);
    fireEvent.click(screen.getByTestId('contact-save'));
    await waitFor(() => expect(reviseCalls()).toHaveLength(2));
    expect(reviseCalls()[1]).toMatchObject({ recordId: 71, edits: 0, note });
    expect(reviseCalls()[1]).not.toHaveProperty('correctionReason');
  });

  test('a change left unsaved (a crash) opens the editor again with it; a cancelled one leaves the record as shown', async () => {
    const current = record();
    serve(new Map<WireEndpoint, Handler>([[endpoints.getContactRecord, () => ({ record: current, versions: [] })]]));
    const first = open('/client/contact/record?recordId=70');
    fireEvent.click(await screen.findByTestId('contact-edit'));
    typeNote('生日问候，约下月饮茶');
    first.unmount();

    queryClient.clear();
    const second = open('/client/contact/record?recordId=70');
    expect(await screen.findByTestId('draft-notice')).toBeTruthy();
    expect(screen.getByPlaceholderText<HTMLTextAreaElement>(/记录与客户沟通的要点/).value).toBe('生日问候，约下月饮茶');
    fireEvent.click(screen.getByTestId('contact-cancel'));
    expect(await screen.findByTestId('contact-edit')).toBeTruthy();
    second.unmount();

    queryClient.clear();
    open('/client/contact/record?recordId=70');
    expect(await screen.findByTestId('contact-edit')).toBeTruthy();
    expect(screen.queryByTestId('draft-notice')).toBeNull();
  });
});

test('the log: newest first, filtered by channel', async () => {
  const calls: Record<string, unknown>[] = [];
  serve(
    new Map<WireEndpoint, Handler>([
      [endpoints.getClientHistory, clientHistory],
      [
        endpoints.listContactRecords,
        (payload) => {
          calls.push(payload);
          const list =
            payload.channel === 'meeting' ? [] : [record(), record({ recordId: 60, threadId: 60, channel: 'meeting', version: 2 })];
          return { list, nextCursor: null };
        },
      ],
    ]),
  );
  open('/client/contact/log?customerId=3');
  const rows = await screen.findAllByTestId('contact-log-row');
  expect(rows.map((row) => row.getAttribute('href'))).toEqual(['/client/contact/record?recordId=70', '/client/contact/record?recordId=60']);
  expect(within(rows[1]!).getByText('已更正')).toBeTruthy();
  fireEvent.click(within(screen.getByTestId('contact-log-filter')).getByRole('radio', { name: '面谈' }));
  expect(await screen.findByText('没有这种方式的联系记录')).toBeTruthy();
  expect(calls.at(-1)).toMatchObject({ customerId: 3, channel: 'meeting' });
});
