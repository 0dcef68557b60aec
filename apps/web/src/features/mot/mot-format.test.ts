import { beforeAll, describe, expect, test } from 'vitest';
import { MOT_RULES } from '@broker/contract';
import { i18n } from '../../shared/i18n/i18n';
import type { TFunction, TOptions } from '../../shared/i18n/translator';
import { motResources } from './locales';
import { addDays, hongKongDay } from '@broker/domain';
import { moneyIn } from '../../shared/format/use-money';
import { describeReason, factRows, eventSubject } from './mot-format';
import { formatDateTime, formatRelativeDay } from '../../shared/format/date-format';

beforeAll(async () => {
  await i18n.changeLanguage('zh-CN');
});

const t = i18n.t.bind(i18n);
/** Shown in HKD (the default), or in USD / CNY at these rates (units per 1 HKD, as the server's rate list gives them). */
const RATES = { HKD: 1, USD: 0.128, CNY: 0.92 };
const inHkd = moneyIn('HKD', RATES);
const inUsd = moneyIn('USD', RATES);
const tEn = ((key: string, options?: TOptions) => i18n.translate(key, { ...options, lng: 'en' })) as TFunction;

describe('why an event fired', () => {
  test('a large deposit names the amount, its HKD value and the threshold it crossed', () => {
    const facts = {
      movementId: 7,
      amount: 32000,
      currency: 'USD',
      rate: 0.128,
      amountHkd: 250000,
      thresholdHkd: 100000,
      method: 'fps',
      occurredAt: '2026-11-20T10:15:00',
    };
    expect(describeReason(t, 'large_deposit', facts, 'zh-CN', inHkd)).toBe(
      '2026-11-20 10:15 入金 USD 32,000.00，折合 HKD 250,000.00，不低于大额门槛 HKD 100,000',
    );
  });

  test('an HKD movement needs no HKD equivalent', () => {
    const facts = {
      amount: 150000,
      currency: 'HKD',
      rate: 1,
      amountHkd: 150000,
      thresholdHkd: 100000,
      method: 'fps',
      occurredAt: '2026-11-21T12:00:00',
    };
    expect(describeReason(t, 'large_withdrawal', facts, 'zh-CN', inHkd)).toBe(
      '2026-11-21 12:00 出金 HKD 150,000.00，不低于大额门槛 HKD 100,000',
    );
  });

  test('a dormant account that never traded says so', () => {
    expect(
      describeReason(
        t,
        'dormant',
        { lastTradeDate: null, openDate: '2025-01-02', daysWithoutTrade: 323, dormantDays: 180 },
        'zh-CN',
        inHkd,
      ),
    ).toBe('已 323 天没有交易（最近交易：从未交易），超过休眠标准 180 天');
  });

  test('expiry says how far away it is, or how long ago it passed', () => {
    expect(describeReason(t, 'id_expiry', { expiryDate: '2026-12-01', daysToExpiry: 10 }, 'zh-CN', inHkd)).toBe(
      '身份证件将于 2026-12-01 到期（还有 10 天）',
    );
    expect(describeReason(t, 'id_expiry', { expiryDate: '2026-11-01', daysToExpiry: -20 }, 'zh-CN', inHkd)).toBe(
      '身份证件将于 2026-11-01 到期（已过期 20 天）',
    );
  });

  test('a position loss names the security in the reader’s language', () => {
    const facts = {
      symbol: '0700',
      securityNameCn: '腾讯控股',
      securityNameEn: 'Tencent',
      lastPrice: 300,
      avgCost: 450,
      lossPct: 33.33,
      lossHkd: 150000,
      minLossPct: 20,
      minLossHkd: 50000,
    };
    expect(describeReason(t, 'position_loss', facts, 'zh-CN', inHkd)).toContain('腾讯控股（0700）');
    expect(describeReason(t, 'position_loss', facts, 'en', inHkd)).toContain('Tencent（0700）');
  });

  test('every rule gives a sentence, even with facts missing', () => {
    for (const rule of MOT_RULES) {
      const reason = describeReason(t, rule, {}, 'zh-CN', inHkd);
      expect(reason).not.toMatch(/\{\{|mot\.reason/);
      expect(factRows(t, rule, {}, 'zh-CN', inHkd).every((row) => !row.label.startsWith('mot.'))).toBe(true);
    }
  });

  test('fact rows format money and quantities', () => {
    const rows = factRows(
      t,
      'large_withdrawal',
      { amount: 1234567.5, currency: 'HKD', amountHkd: 1234567.5, thresholdHkd: 100000, method: 'fps', occurredAt: '2026-11-20T09:00:00' },
      'zh-CN',
      inHkd,
    );
    expect(rows).toContainEqual({ label: '金额', value: '1,234,567.50' });
    expect(rows).toContainEqual({ label: '方式', value: '转数快' });
    expect(rows.map((row) => row.label)).not.toContain('折合港币');
    expect(rows).toContainEqual({ label: '发生时间', value: '2026-11-20 09:00' });
  });
});

describe('days', () => {
  test('Hong Kong day and time, whatever the machine’s zone', () => {
    const lateUtc = Date.parse('2026-11-20T17:30:00Z');
    expect(hongKongDay(lateUtc)).toBe('2026-11-21');
    expect(formatDateTime(lateUtc)).toBe('2026-11-21 01:30');
    expect(formatDateTime(null)).toBe('-');
  });

  test('today, tomorrow and yesterday by name, other days as month-day', () => {
    expect(formatRelativeDay('2026-11-21', '2026-11-21')).toBe('今天');
    expect(formatRelativeDay(addDays('2026-11-21', 1), '2026-11-21')).toBe('明天');
    expect(formatRelativeDay('2026-11-20', '2026-11-21')).toBe('昨天');
    expect(formatRelativeDay('2026-12-01', '2026-11-21')).toBe('12-01');
  });
});

test('the three languages have the same keys (plural forms aside: English has "1 event", Chinese one form)', () => {
  const keys = (value: unknown, prefix = ''): string[] =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.entries(value)
          .filter(([key]) => !/_(one|other)$/.test(key))
          .flatMap(([key, child]) => keys(child, `${prefix}${key}.`))
      : [prefix];
  const zh = keys(motResources['zh-CN']).sort();
  expect(keys(motResources['zh-HK']).sort()).toEqual(zh);
  expect(keys(motResources.en).sort()).toEqual(zh);
});

describe('eventSubject', () => {
  test('names the stock, amount or date that tells two events of a kind apart', () => {
    const loss = { symbol: '0700.HK', securityNameCn: '腾讯控股', securityNameEn: 'Tencent', lossPct: 23.5 };
    expect(eventSubject('position_loss', loss, 'zh-CN', inHkd)).toContain('腾讯控股');
    expect(eventSubject('position_loss', loss, 'en', inHkd)).toContain('Tencent');
    expect(eventSubject('position_loss', loss, 'zh-CN', inHkd)).toBe('腾讯控股 -23.5%');
    expect(eventSubject('position_loss', { ...loss, lossPct: 25.137 }, 'zh-CN', inHkd)).toBe('腾讯控股 -25.1%');
    expect(eventSubject('large_deposit', { currency: 'USD', amount: 32000 }, 'zh-CN', inHkd)).toBe('USD 32,000.00');
    expect(eventSubject('id_expiry', { expiryDate: '2026-12-01' }, 'en', inHkd)).toBe('2026-12-01');
  });

  test('an amount booked in another currency than the chosen one is followed by its value in the chosen one', () => {
    const deposit = { currency: 'USD', amount: 32000, amountHkd: 250000 };
    expect(eventSubject('large_deposit', deposit, 'zh-CN', inHkd)).toBe('USD 32,000.00 (≈ HKD 250,000)');
    expect(eventSubject('large_deposit', deposit, 'en', moneyIn('CNY', RATES))).toBe('USD 32,000.00 (≈ CNY 230,000)');
    // Booked in the chosen currency: the booked amount alone (not a second, rate-rounded figure).
    expect(eventSubject('large_deposit', deposit, 'zh-CN', inUsd)).toBe('USD 32,000.00');
    // No rate for the chosen currency (the rates did not load): the booked amount, not "≈ USD -".
    expect(
      eventSubject('large_withdrawal', { currency: 'HKD', amount: 150000, amountHkd: 150000 }, 'zh-CN', moneyIn('USD', { HKD: 1 })),
    ).toBe('HKD 150,000.00');
  });
});

describe('in the chosen currency', () => {
  const cnyDeposit = {
    amount: 1000000,
    currency: 'CNY',
    rate: 0.92,
    amountHkd: 1086956.52,
    thresholdHkd: 100000,
    method: 'fps',
    occurredAt: '2026-11-20T10:15:00',
  };

  test("a large deposit's equivalent and threshold follow the chosen currency; the booked amount stays as booked", () => {
    expect(describeReason(t, 'large_deposit', cnyDeposit, 'zh-CN', inUsd)).toBe(
      '2026-11-20 10:15 入金 CNY 1,000,000.00，折合 USD 139,130.43，不低于大额门槛 USD 12,800',
    );
    expect(describeReason(tEn, 'large_deposit', cnyDeposit, 'en', inUsd)).toBe(
      'Deposit of CNY 1,000,000.00 on 2026-11-20 10:15 = USD 139,130.43, at or above the USD 12,800 threshold',
    );
    // Booked in the chosen currency: no equivalent in it.
    expect(describeReason(t, 'large_deposit', cnyDeposit, 'zh-CN', moneyIn('CNY', RATES))).toBe(
      '2026-11-20 10:15 入金 CNY 1,000,000.00，不低于大额门槛 CNY 92,000',
    );
  });

  test('fact rows: HKD figures converted, their labels naming the chosen currency', () => {
    const rows = factRows(t, 'large_deposit', cnyDeposit, 'zh-CN', inUsd);
    expect(rows).toContainEqual({ label: '金额', value: '1,000,000.00' });
    expect(rows).toContainEqual({ label: '币种', value: 'CNY' });
    expect(rows).toContainEqual({ label: '折合（USD）', value: '139,130.43' });
    expect(rows).toContainEqual({ label: '大额门槛（USD）', value: '12,800.00' });
    expect(factRows(t, 'large_deposit', cnyDeposit, 'zh-CN', moneyIn('CNY', RATES)).map((row) => row.label)).not.toContain('折合（CNY）');
  });

  test('a position loss: prices in the security’s currency, the loss and the rule’s minimum in the chosen one', () => {
    const facts = {
      symbol: 'AAPL',
      securityNameCn: '苹果',
      securityNameEn: 'Apple',
      currency: 'USD',
      quantity: 1000,
      avgCost: 250,
      lastPrice: 180,
      lossPct: 28,
      lossHkd: 546875,
      minLossPct: 20,
      minLossHkd: 50000,
    };
    expect(describeReason(tEn, 'position_loss', facts, 'en', inUsd)).toBe(
      'Apple（AAPL） at 180.00 USD, below cost 250.00 USD: down 28.00% (about USD 70,000.00), over 20% and USD 6,400',
    );
    const rows = factRows(t, 'position_loss', facts, 'zh-HK', moneyIn('CNY', RATES));
    expect(rows).toContainEqual({ label: t('mot.fact.lossHkd', { ccy: 'CNY' }), value: '503,125.00' });
    expect(rows).toContainEqual({ label: t('mot.fact.lastPrice'), value: '180.00 USD' });
    expect(rows).toContainEqual({ label: t('mot.fact.lossPct'), value: '28.00%' });
  });

  test('a stock transfer’s value', () => {
    const facts = { symbol: '0700', securityNameCn: '腾讯控股', quantity: 2000, lastPrice: 400, currency: 'HKD', valueHkd: 800000 };
    expect(describeReason(t, 'transfer_in', { ...facts, occurredAt: '2026-11-20T09:30:00' }, 'zh-CN', inUsd)).toBe(
      '2026-11-20 09:30 转入 腾讯控股（0700） 2,000 股，市值约 USD 102,400.00',
    );
    expect(factRows(t, 'transfer_in', facts, 'zh-CN', inUsd)).toContainEqual({ label: '市值（USD）', value: '102,400.00' });
  });
});
