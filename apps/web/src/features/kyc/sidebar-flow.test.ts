import { beforeEach, expect, test, vi } from 'vitest';
import { useAppSettings } from '../../shared/session/app-settings-store';
import { followSidebarContext, runSidebarFlow, type SidebarRouter } from './sidebar-flow';
import { SIDEBAR_PENDING_KEY } from './kyc-transitions';

const wecom = vi.hoisted(() => ({ entry: 'single_chat_tools', contact: 'wmEmu0001HoKwokLeung' }));
const hasKyc = vi.hoisted(() => vi.fn());

vi.mock('../../shared/wecom/wecom-sdk', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  getWeComEntry: async () => wecom.entry,
  getCurrentExternalUserId: async () => wecom.contact,
}));
vi.mock('../../shared/api/request', () => ({ request: (...args: unknown[]) => hasKyc(...args) }));
const dialog = vi.hoisted(() => ({ alert: vi.fn(async () => undefined) }));
vi.mock('../../shared/ui/antd-dialog', () => ({ default: dialog }));

function fakeRouter() {
  const navigate = vi.fn(async () => undefined);
  const router: SidebarRouter = {
    state: { initialized: true, navigation: { state: 'idle' }, location: { pathname: '/client/manage/list', key: 'k1' } },
    subscribe: () => () => undefined,
    navigate,
  };
  return { router, navigate };
}

const bound = (customerId: number) => ({
  bound: true,
  ownCustomer: true,
  binding: {
    externalUserId: wecom.contact,
    customerId,
    customerName: '周美',
    customerNameEn: 'CHOW Mei',
    customerNo: 'C00000005',
    phone: null,
    boundAt: 0,
  },
  contact: { externalUserId: wecom.contact, name: '何国良', followedByYou: true },
});
const unbound = { bound: false, ownCustomer: false, binding: null, contact: null };

beforeEach(() => {
  wecom.entry = 'single_chat_tools';
  wecom.contact = 'wmEmu0001HoKwokLeung';
  dialog.alert.mockClear();
  useAppSettings.getState().reset();
  hasKyc.mockReset();
  sessionStorage.setItem(SIDEBAR_PENDING_KEY, '1');
});

test('opened from a chat whose contact is bound to my customer: straight to that profile', async () => {
  hasKyc.mockResolvedValue(bound(12));
  const { router, navigate } = fakeRouter();
  await runSidebarFlow(router);
  expect(useAppSettings.getState().entry).toBe('single_chat_tools');
  expect(navigate).toHaveBeenCalledWith('/client/information?customerId=12', { replace: true });
  expect(sessionStorage.getItem(SIDEBAR_PENDING_KEY)).toBeNull();
});

test("an unbound contact, or one bound to someone else's customer: the KYC page", async () => {
  hasKyc.mockResolvedValueOnce(unbound).mockResolvedValueOnce({ ...unbound, bound: true });
  const first = fakeRouter();
  await runSidebarFlow(first.router);
  expect(first.navigate).toHaveBeenCalledWith('/kyc/index', { replace: true });
  sessionStorage.setItem(SIDEBAR_PENDING_KEY, '1');
  const second = fakeRouter();
  await runSidebarFlow(second.router);
  expect(second.navigate).toHaveBeenCalledWith('/kyc/index', { replace: true });
});

test('opened from the workbench: the entry is taken, nothing else happens', async () => {
  wecom.entry = 'normal';
  useAppSettings.getState().update({ entry: 'single_chat_tools' });
  const { router, navigate } = fakeRouter();
  await runSidebarFlow(router);
  expect(useAppSettings.getState().entry).toBe('normal');
  expect(navigate).not.toHaveBeenCalled();
  expect(hasKyc).not.toHaveBeenCalled();
});

test('a later page load (not the entry URL) only takes the entry: no landing-page jump', async () => {
  sessionStorage.removeItem(SIDEBAR_PENDING_KEY);
  const { router, navigate } = fakeRouter();
  await runSidebarFlow(router);
  expect(useAppSettings.getState().entry).toBe('single_chat_tools');
  expect(navigate).not.toHaveBeenCalled();
});

test('the user moved on while WeCom answered: they stay where they are', async () => {
  const { router, navigate } = fakeRouter();
  hasKyc.mockImplementation(async () => {
    (router.state as { location: { key: string } }).location.key = 'k2';
    return bound(3);
  });
  await runSidebarFlow(router);
  expect(navigate).not.toHaveBeenCalled();
});

test("opened from a customer's contact card (contact_profile): the same landing as the chat toolbar", async () => {
  wecom.entry = 'contact_profile';
  hasKyc.mockResolvedValueOnce(bound(21)).mockResolvedValueOnce(unbound);
  const first = fakeRouter();
  expect(await runSidebarFlow(first.router)).toEqual({ entry: 'contact_profile', contact: 'wmEmu0001HoKwokLeung' });
  expect(first.navigate).toHaveBeenCalledWith('/client/information?customerId=21', { replace: true });
  expect(useAppSettings.getState().entry).toBe('contact_profile');
  sessionStorage.setItem(SIDEBAR_PENDING_KEY, '1');
  const second = fakeRouter();
  await runSidebarFlow(second.router);
  expect(second.navigate).toHaveBeenCalledWith('/kyc/index', { replace: true });
});

test('opened from a group chat or another entry with no customer: a notice, no jump, no lookup', async () => {
  for (const entry of ['group_chat_tools', 'chat_attachment']) {
    wecom.entry = entry;
    sessionStorage.setItem(SIDEBAR_PENDING_KEY, '1');
    const { router, navigate } = fakeRouter();
    await runSidebarFlow(router);
    await vi.waitFor(() => expect(dialog.alert).toHaveBeenCalledTimes(entry === 'group_chat_tools' ? 1 : 2));
    expect(navigate).not.toHaveBeenCalled();
  }
  expect(hasKyc).not.toHaveBeenCalled();
  const [[group], [other]] = dialog.alert.mock.calls as unknown as [[{ title: string }], [{ title: string }]];
  expect(group.title).toBe('群聊中暂不支持客户识别');
  expect(other.title).toBe('此入口暂不支持客户识别');
});

test('shown again for another chat (desktop reuses the page): lands for the new customer; for the same one, stays', async () => {
  hasKyc.mockResolvedValueOnce(bound(7)).mockResolvedValueOnce(unbound);
  const { router, navigate } = fakeRouter();
  let shown = await followSidebarContext(router, { entry: 'single_chat_tools', contact: 'wmEmu0009Someone' });
  expect(navigate).toHaveBeenLastCalledWith('/client/information?customerId=7', { replace: true });
  expect(shown).toEqual({ entry: 'single_chat_tools', contact: 'wmEmu0001HoKwokLeung' });

  shown = await followSidebarContext(router, shown);
  expect(navigate).toHaveBeenCalledTimes(1);

  wecom.contact = 'wmEmu0005WangLei';
  shown = await followSidebarContext(router, shown);
  expect(navigate).toHaveBeenLastCalledWith('/kyc/index', { replace: true });
  expect(shown?.contact).toBe('wmEmu0005WangLei');
});
