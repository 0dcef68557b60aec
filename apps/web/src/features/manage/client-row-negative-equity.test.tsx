import { beforeEach, expect, test } from 'vitest';
import { screen } from '@testing-library/react';
import type { CustomerListItem } from '@broker/contract';
import { useAppSettings } from '../../shared/session/app-settings-store';
import { ClientRow } from './client-row';
import { manageLocalesReady } from './manage-locales';
import { customerListItem, renderPage } from '../../testing/render-page';

const client = (totalAssetsHkd: number) => customerListItem(7, { nameCn: '陈大文', nameEn: 'CHAN Tai Man', riskLevel: 3, totalAssetsHkd });

const renderRow = (row: CustomerListItem) => renderPage(<ClientRow client={row} />);

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
