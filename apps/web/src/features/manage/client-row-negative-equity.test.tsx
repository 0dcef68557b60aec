import { beforeEach, expect, test } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import type { CustomerListItem } from '@broker/contract';
import { queryClient } from '../../shared/api/query-client';
import { useAppSettings } from '../../shared/session/app-settings-store';
import { ClientRow } from './client-row';
import { manageLocalesReady } from './manage-locales';

const client = (totalAssetsHkd: number): CustomerListItem => ({
  customerId: 7,
  customerNo: 'C7',
  nameCn: '陈大文',
  nameEn: 'CHAN Tai Man',
  phoneMasked: null,
  idDocMasked: 'A1**4567',
  accountNos: [],
  channel: 'branch',
  status: 'active',
  riskLevel: 3,
  tags: [],
  kycBound: false,
  totalAssetsHkd,
  openDate: '2026-01-02',
  lastTradeDate: null,
  matchedOn: null,
});

const renderRow = (row: CustomerListItem) =>
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <ClientRow client={row} />
      </MemoryRouter>
    </QueryClientProvider>,
  );

beforeEach(async () => {
  await manageLocalesReady;
  useAppSettings.getState().reset();
});

test('a list row says negative equity in words, as net assets, not as a total that happens to be below zero (ADR 0043)', () => {
  renderRow(client(-120_000.5));
  expect(screen.getByTestId('client-assets').textContent).toBe('-120,000.50');
  expect(screen.getByTestId('client-assets').className).toContain('ba-client__amount--negative');
  expect(screen.getByText('净资产(HKD)')).toBeTruthy();
  expect(screen.getByText('负资产')).toBeTruthy();
});

test('a row in credit stays a total', () => {
  renderRow(client(1_000));
  expect(screen.getByText('总资产(HKD)')).toBeTruthy();
  expect(screen.queryByText('负资产')).toBeNull();
});
