import { beforeEach, expect, test, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import { ApiError } from '../../shared/api/api-error';
import './locales';
import KycIndexPage from './kyc-index-page';

const api = vi.hoisted(() => ({ hasKyc: vi.fn(), search: vi.fn(), bind: vi.fn(), unbind: vi.fn() }));

vi.mock('../../shared/wecom/wecom-sdk', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  isWeComBrowser: () => true,
  getWeComEntry: async () => 'single_chat_tools',
  getCurrentExternalUserId: async () => 'wmEmu0001HoKwokLeung',
}));
vi.mock('../../shared/api/request', () => ({
  request: (endpoint: { path: string }, payload: unknown) => {
    const name = endpoint.path.split('/').at(-1) as string;
    const handler = { hasKyc: api.hasKyc, search: api.search, bind: api.bind, unbind: api.unbind }[name];
    return handler!(payload);
  },
}));

const candidate = {
  customerId: 5,
  customerNo: 'C00000005',
  nameCn: '周美',
  nameEn: 'CHOW Mei',
  phone: '+852 9607 ****',
  idDoc: 'K9**7628',
  accountNos: ['800000005'],
  status: 'active',
  boundExternalUserId: null,
};

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/kyc/index']}>
        <Routes>
          <Route path="/kyc/index" element={<KycIndexPage />} />
          <Route path="/client/information" element={<p>profile page</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  Object.values(api).forEach((fn) => fn.mockReset());
  api.hasKyc.mockResolvedValue({
    bound: false,
    ownCustomer: false,
    binding: null,
    contact: { externalUserId: 'wmEmu0001HoKwokLeung', name: '何国良', followedByYou: true },
  });
  api.search.mockResolvedValue({
    list: [candidate, { ...candidate, customerId: 6, nameCn: '陈大文', boundExternalUserId: 'wmOther' }],
    total: 2,
    pageNum: 1,
    pageSize: 20,
    hasMore: false,
  });
});

async function searchAndConfirmBind() {
  await screen.findByText('何国良');
  fireEvent.change(screen.getByRole('searchbox'), { target: { value: '周' } });
  fireEvent.change(screen.getByRole('searchbox'), { target: { value: '周美' } });
  const bindButton = await screen.findByRole('button', { name: '绑定' }, { timeout: 2000 });
  expect(screen.getByText('已绑定', { selector: '.ba-kyc__taken' })).toBeTruthy();
  expect(screen.getAllByRole('button', { name: '绑定' })).toHaveLength(1);
  fireEvent.click(bindButton);
  fireEvent.click(await screen.findByRole('button', { name: '确认绑定' }));
}

test('search (debounced), confirm, bind: storage announces it and the profile opens', async () => {
  api.bind.mockResolvedValue({
    externalUserId: 'wmEmu0001HoKwokLeung',
    customerId: 5,
    customerName: '周美',
    customerNameEn: 'CHOW Mei',
    customerNo: 'C00000005',
    phone: '+852 9123 ****',
    boundAt: 0,
  });
  renderPage();
  await searchAndConfirmBind();
  await screen.findByText('profile page');
  // Debounced: only the keyword the user stopped at was searched.
  expect(api.search.mock.calls.map(([payload]) => (payload as { keyword: string }).keyword)).not.toContain('周');
  expect(api.search).toHaveBeenCalledWith({ keyword: '周美', pageNum: 1, pageSize: 20 });
  expect(api.bind).toHaveBeenCalledWith({ externalUserId: 'wmEmu0001HoKwokLeung', customerId: 5 });
  expect(localStorage.getItem('kyc_customerId')).toBe('5');
  expect(localStorage.getItem('kyc')).not.toContain('unbind');
});

test('a refused bind is explained in words, and the page stays', async () => {
  api.bind.mockRejectedValue(new ApiError('091002', 'customerId: already bound', '/api/client/customer/kyc/bind'));
  renderPage();
  await searchAndConfirmBind();
  await screen.findByText('该客户已绑定其他聊天联系人，请先解除原有绑定');
  expect(screen.queryByText('profile page')).toBeNull();
  expect(localStorage.getItem('kyc')).toBeNull();
});
