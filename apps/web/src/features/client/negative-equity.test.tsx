import { afterAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import type { CustomerAsset } from '@broker/contract';
import { queryClient } from '../../shared/api/query-client';
import { useAppSettings } from '../../shared/session/app-settings-store';
import { i18n } from '../../shared/i18n/i18n';
import { renderPage } from '../../testing/render-page';
import { AssetCard } from './client-information-page';
import { splitAllocation } from './allocation-chart';

vi.mock('../../shared/api/request', () => ({ request: vi.fn() }));

/** A margin client whose loan outgrew the holdings: HKD 680,000 of stock (HK and US), HKD 800,000.50 owed. */
const NEGATIVE: CustomerAsset = {
  totalAssetsHkd: -120000.5,
  cashHkd: -800000.5,
  marketValueHkd: 680000,
  todayPnlHkd: -5000,
  todayPnlRatio: -0.0073,
  byMarket: [
    { key: 'HK', cashHkd: 0, marketValueHkd: 510000, totalHkd: 510000, ratio: 0 },
    { key: 'US', cashHkd: 0, marketValueHkd: 170000, totalHkd: 170000, ratio: 0 },
  ],
  byCurrency: [
    { key: 'USD', cashHkd: 0, marketValueHkd: 170000, totalHkd: 170000, ratio: 0, amount: 21800 },
    { key: 'HKD', cashHkd: -800000.5, marketValueHkd: 510000, totalHkd: -290000.5, ratio: 0, amount: -290000.5 },
  ],
  priceDate: '2026-11-20',
};

const renderCard = (asset: CustomerAsset) => renderPage(<AssetCard asset={asset} />);

beforeEach(() => {
  queryClient.clear();
  useAppSettings.getState().reset();
});
afterAll(async () => {
  await i18n.changeLanguage('zh-CN');
});

describe('negative net assets on the profile (ADR 0043)', () => {
  const words = {
    'zh-CN': {
      label: '净资产（HKD）',
      tag: '负资产',
      warning: '净资产为负：欠款比所持资产多 HKD 120,000.50，请联系客户存入资金或减持。',
      loan: '融资欠款',
      note: '占比按所持资产 HKD 680,000 计算，未扣除欠款',
      owedHkd: 'HKD 欠款',
    },
    'zh-HK': {
      label: '淨資產（HKD）',
      tag: '負資產',
      warning: '淨資產為負：欠款比所持資產多 HKD 120,000.50，請聯絡客戶存入資金或減持。',
      loan: '融資欠款',
      note: '佔比按所持資產 HKD 680,000 計算，未扣除欠款',
      owedHkd: 'HKD 欠款',
    },
    en: {
      label: 'Net assets (HKD)',
      tag: 'Negative equity',
      warning: 'Net assets are negative: the client owes HKD 120,000.50 more than they hold. Ask for a deposit or a reduction.',
      loan: 'Margin loan',
      note: 'Shares are of the assets held, HKD 680,000, before what is owed',
      owedHkd: 'HKD owed',
    },
  } as const;

  for (const language of ['zh-CN', 'zh-HK', 'en'] as const) {
    test(`says so in words, in red, and the chart draws only what is held (${language})`, async () => {
      await i18n.changeLanguage(language);
      const said = words[language];
      const { container } = renderCard(NEGATIVE);
      expect(screen.getByText(said.label)).toBeTruthy();
      expect(screen.getByText(said.tag)).toBeTruthy();
      expect(screen.getByTestId('asset-total').textContent).toBe('-120,000.50');
      expect(screen.getByTestId('asset-total').className).toContain('ba-asset__total--negative');
      expect(screen.getByTestId('asset-negative').textContent).toBe(said.warning);

      // By market: HK 75 %, US 25 % of what is held; the loan listed apart, with the basis of the shares.
      const chart = screen.getByTestId('allocation-chart');
      const legend = within(chart)
        .getAllByRole('listitem')
        .map((item) => item.textContent);
      expect(legend).toEqual([expect.stringMatching(/75\.0%510,000$/), expect.stringMatching(/25\.0%170,000$/), `${said.loan}-800,001`]);
      expect(within(screen.getByTestId('allocation-owed')).getByText(said.note)).toBeTruthy();
      const arcs = [...container.querySelectorAll('.ba-donut circle')].slice(1).map((arc) => arc.getAttribute('stroke-dasharray'));
      expect(arcs).toEqual(['75 25', '25 75']);
      expect(container.innerHTML).not.toMatch(/NaN|Infinity/);

      // By currency: USD is everything held; HKD is owed.
      fireEvent.click(within(chart).getAllByRole('tab')[1]!);
      expect(
        within(chart)
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual([expect.stringMatching(/^USD100\.0%170,000$/), `${said.owedHkd}-290,001`]);
    });
  }

  test('a positive book reads as before: total assets, no warning, no owed lines', async () => {
    await i18n.changeLanguage('zh-CN');
    renderCard({
      ...NEGATIVE,
      totalAssetsHkd: 780000,
      cashHkd: 100000,
      byCurrency: [{ key: 'HKD', cashHkd: 100000, marketValueHkd: 680000, totalHkd: 780000, ratio: 1, amount: 780000 }],
    });
    expect(screen.getByText('总资产（HKD）')).toBeTruthy();
    expect(screen.queryByTestId('asset-negative')).toBeNull();
    expect(screen.queryByTestId('allocation-owed')).toBeNull();
    expect(screen.getByTestId('asset-total').className).not.toContain('negative');
  });
});

describe('splitAllocation', () => {
  test('shares of what is held only; owed parts apart; nothing held gives no slices, never NaN', () => {
    expect(
      splitAllocation([
        { key: 'a', label: 'A', valueHkd: 300 },
        { key: 'loan', label: 'Loan', valueHkd: -500 },
        { key: 'b', label: 'B', valueHkd: 100 },
        { key: 'zero', label: 'Zero', valueHkd: 0 },
      ]),
    ).toEqual({
      slices: [
        { key: 'a', label: 'A', valueHkd: 300, ratio: 0.75 },
        { key: 'b', label: 'B', valueHkd: 100, ratio: 0.25 },
      ],
      owed: [{ key: 'loan', label: 'Loan', valueHkd: -500 }],
      heldHkd: 400,
    });
    expect(splitAllocation([{ key: 'loan', label: 'Loan', valueHkd: -10 }])).toEqual({
      slices: [],
      owed: [{ key: 'loan', label: 'Loan', valueHkd: -10 }],
      heldHkd: 0,
    });
  });
});
