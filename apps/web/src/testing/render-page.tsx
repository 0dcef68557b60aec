import type { ReactNode } from 'react';
import { vi } from 'vitest';
import { render, type RenderResult } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import type { CustomerListItem } from '@broker/contract';
import { queryClient } from '../shared/api/query-client';

/**
 * What the page tests share of the app around a page: one copy here instead of one per test file.
 */

/**
 * Renders `node` as the app does: under the app's own query cache (a test clears it in `beforeEach`) and a
 * router at `path`. `rerender` wraps the next element the same way, so the page keeps its state.
 */
export function renderPage(node: ReactNode, options: { path?: string } = {}): RenderResult {
  const inApp = (page: ReactNode) => (
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[options.path ?? '/']}>{page}</MemoryRouter>
    </QueryClientProvider>
  );
  const view = render(inApp(node));
  return { ...view, rerender: (next: ReactNode) => view.rerender(inApp(next)) };
}

/** jsdom has no IntersectionObserver: a list's footer watches nothing. Undo with `vi.unstubAllGlobals()`. */
export function stubIntersectionObserver() {
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
}

/** A row of the client list: customer `customerId`, active, HKD 1,000, nothing matched; `overrides` change any field. */
export const customerListItem = (customerId: number, overrides: Partial<CustomerListItem> = {}): CustomerListItem => ({
  customerId,
  customerNo: `C${customerId}`,
  nameCn: `客户${customerId}`,
  nameEn: `Client ${customerId}`,
  phoneMasked: null,
  idDocMasked: 'A1**4567',
  accountNos: [],
  channel: 'branch',
  status: 'active',
  riskLevel: 1,
  tags: [],
  kycBound: false,
  totalAssetsHkd: 1000,
  openDate: '2026-01-02',
  lastTradeDate: null,
  matchedOn: null,
  ...overrides,
});
