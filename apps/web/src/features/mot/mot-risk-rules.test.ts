import { afterAll, describe, expect, test } from 'vitest';
import type { MotFacts, MotRule } from '@broker/contract';
import { i18n, type Language } from '../../shared/i18n/i18n';
import './locales';
import { moneyIn } from '../../shared/format/use-money';
import { describeReason, eventSubject, factRows } from './mot-format';

const RATES = { HKD: 1, USD: 0.128 };
const inHkd = moneyIn('HKD', RATES);
const inUsd = moneyIn('USD', RATES);

// The risk rules of issue 24 (ADR 0043): what their events say, in each language, from facts as the rules write them.
const { t } = i18n;

const NEGATIVE: MotFacts = { netAssetsHkd: -120000.5, cashHkd: -800000.5, marketValueHkd: 680000, shortfallHkd: 120000.5, repeatDays: 7 };
const CONCENTRATION: MotFacts = {
  symbol: '0700.HK',
  securityNameCn: '腾讯控股',
  securityNameEn: 'Tencent',
  currency: 'HKD',
  quantity: 4000,
  lastPrice: 385.2,
  priceDate: '2026-11-20',
  positionHkd: 1540800,
  assetsHkd: 2000000,
  sharePct: 77.04,
  minSharePct: 50,
  minPositionHkd: 1000000,
};
const PARTICULARS: MotFacts = {
  movementId: 9,
  amount: 300000,
  currency: 'HKD',
  rate: 1,
  amountHkd: 300000,
  thresholdHkd: 100000,
  method: 'fps',
  occurredAt: '2026-11-20 12:00',
  changedFields: 'email,phone',
  changedAt: '2026-11-10 09:30',
  changedBy: '陈伟文',
  daysBetween: 10,
  withinDays: 14,
};
const ELDER_WITHDRAWAL: MotFacts = {
  trigger: 'withdrawal',
  movementId: 10,
  amount: 20000,
  currency: 'USD',
  rate: 0.1282,
  amountHkd: 156006.24,
  thresholdHkd: 100000,
  method: 'bank_transfer',
  occurredAt: '2026-11-19 15:00',
  age: 72,
  minAge: 65,
};
const ELDER_MARKET: MotFacts = {
  trigger: 'new_market',
  market: 'US',
  tradeId: 11,
  symbol: 'TSLA',
  securityNameCn: '特斯拉',
  securityNameEn: 'Tesla',
  side: 'buy',
  quantity: 50,
  occurredAt: '2026-11-18 22:31',
  previousMarkets: 'HK',
  age: 70,
  minAge: 65,
};

const EXPECTED: Record<Language, [MotRule, MotFacts, string][]> = {
  'zh-CN': [
    [
      'negative_equity',
      NEGATIVE,
      '净资产为负：HKD -120,000.50（现金 HKD -800,000.50，持仓市值 HKD 680,000.00），欠款比资产多 HKD 120,000.50；请联系客户存入资金或减持',
    ],
    [
      'concentration',
      CONCENTRATION,
      '腾讯控股（0700.HK） 市值 HKD 1,540,800.00，占客户资产 HKD 2,000,000.00 的 77.04%，超过 50%（持仓 HKD 1,000,000 起计）',
    ],
    [
      'particulars_changed_withdrawal',
      PARTICULARS,
      '2026-11-10 09:30 修改了电邮地址、电话号码，10 天后（2026-11-20 12:00）出金 HKD 300,000.00，不低于大额门槛 HKD 100,000（标准：14 天内）；请用修改前的联系方式向客户本人核实',
    ],
    [
      'vulnerable_client',
      ELDER_WITHDRAWAL,
      '客户 72 岁（65 岁或以上），2026-11-19 15:00 出金 USD 20,000.00，不低于大额门槛 HKD 100,000；请关心资金用途，留意是否有人代为指使',
    ],
    [
      'vulnerable_client',
      ELDER_MARKET,
      '客户 70 岁（65 岁或以上），2026-11-18 22:31 首次在美股交易（特斯拉（TSLA）），此前只在港股交易；请确认客户了解该市场的风险',
    ],
    [
      'id_expiry',
      { expiryDate: '2026-11-27', daysToExpiry: 7, lookaheadDays: 7, warning: 'final' },
      '最后提醒：身份证件将于 2026-11-27 到期（还有 7 天）',
    ],
  ],
  'zh-HK': [
    [
      'negative_equity',
      NEGATIVE,
      '淨資產為負：HKD -120,000.50（現金 HKD -800,000.50，持倉市值 HKD 680,000.00），欠款比資產多 HKD 120,000.50；請聯絡客戶存入資金或減持',
    ],
    [
      'concentration',
      CONCENTRATION,
      '腾讯控股（0700.HK） 市值 HKD 1,540,800.00，佔客戶資產 HKD 2,000,000.00 的 77.04%，超過 50%（持倉 HKD 1,000,000 起計）',
    ],
    [
      'particulars_changed_withdrawal',
      PARTICULARS,
      '2026-11-10 09:30 修改了電郵地址、電話號碼，10 天後（2026-11-20 12:00）出金 HKD 300,000.00，不低於大額門檻 HKD 100,000（標準：14 天內）；請用修改前的聯絡方式向客戶本人核實',
    ],
    [
      'vulnerable_client',
      ELDER_MARKET,
      '客戶 70 歲（65 歲或以上），2026-11-18 22:31 首次在美股交易（特斯拉（TSLA）），此前只在港股交易；請確認客戶了解該市場的風險',
    ],
    [
      'risk_expiry',
      { expiryDate: '2026-11-27', daysToExpiry: 7, assessedOn: '2024-11-27', validYears: 2, warning: 'final' },
      '最後提醒：風險評估（2024-11-27 完成，有效 2 年）將於 2026-11-27 到期（還有 7 天）',
    ],
  ],
  en: [
    [
      'negative_equity',
      NEGATIVE,
      'Net assets are negative: HKD -120,000.50 (cash HKD -800,000.50, holdings HKD 680,000.00); the client owes HKD 120,000.50 more than they hold. Ask for a deposit or a reduction',
    ],
    [
      'concentration',
      CONCENTRATION,
      "Tencent（0700.HK） worth HKD 1,540,800.00 is 77.04% of the client's assets of HKD 2,000,000.00, over 50% (positions from HKD 1,000,000)",
    ],
    [
      'particulars_changed_withdrawal',
      PARTICULARS,
      'Email address, Phone number changed on 2026-11-10 09:30, then 10 days later (2026-11-20 12:00) a withdrawal of HKD 300,000.00, at or above the HKD 100,000 threshold (limit: within 14 days). Verify with the client in person, through the contact details held before the change',
    ],
    [
      'vulnerable_client',
      { ...ELDER_MARKET, previousMarkets: '' },
      'Client aged 70 (65 or over) made a first trade on 2026-11-18 22:31 (US, Tesla（TSLA）). Make sure they understand the risks',
    ],
    [
      'vulnerable_client',
      ELDER_WITHDRAWAL,
      'Client aged 72 (65 or over) withdrew USD 20,000.00 on 2026-11-19 15:00, at or above the HKD 100,000 threshold. Ask what it is for, and whether anyone is pressing them',
    ],
  ],
};

describe('the risk rules say why they fired', () => {
  afterAll(async () => {
    await i18n.changeLanguage('zh-CN');
  });

  for (const language of ['zh-CN', 'zh-HK', 'en'] as const) {
    test(`in ${language}`, async () => {
      await i18n.changeLanguage(language);
      for (const [rule, facts, sentence] of EXPECTED[language]) expect(describeReason(t, rule, facts, language, inHkd)).toBe(sentence);
      // The rule's own name, not its key.
      for (const rule of ['negative_equity', 'concentration', 'particulars_changed_withdrawal', 'vulnerable_client'] as const)
        expect(t(`mot.rule.${rule}`)).not.toMatch(/^mot\.|_/);
    });
  }

  test('the first expiry warning reads as before; only the final one says so', async () => {
    await i18n.changeLanguage('en');
    expect(describeReason(t, 'id_expiry', { expiryDate: '2026-12-20', daysToExpiry: 30, lookaheadDays: 30 }, 'en', inHkd)).toBe(
      'Identity document expires on 2026-12-20 (in 30 days)',
    );
  });

  test('fact rows: money formatted, particulars and markets named, a trigger’s absent rows left out', async () => {
    await i18n.changeLanguage('zh-CN');
    const particulars = factRows(t, 'particulars_changed_withdrawal', PARTICULARS, 'zh-CN', inHkd);
    expect(particulars).toContainEqual({ label: '修改内容', value: '电邮地址、电话号码' });
    expect(particulars).toContainEqual({ label: '修改人', value: '陈伟文' });
    expect(particulars.map((row) => row.label)).not.toContain('折合港币');
    expect(factRows(t, 'particulars_changed_withdrawal', { ...PARTICULARS, changedBy: null }, 'zh-CN', inHkd)).toContainEqual({
      label: '修改人',
      value: '系统',
    });
    expect(factRows(t, 'negative_equity', NEGATIVE, 'zh-CN', inHkd)).toEqual([
      { label: '净资产（HKD）', value: '-120,000.50' },
      { label: '现金（HKD）', value: '-800,000.50' },
      { label: '持仓市值（HKD）', value: '680,000.00' },
      { label: '欠款超出（HKD）', value: '120,000.50' },
    ]);
    expect(factRows(t, 'concentration', CONCENTRATION, 'zh-CN', inHkd)).toContainEqual({ label: '占比', value: '77.04%' });
    const market = factRows(t, 'vulnerable_client', ELDER_MARKET, 'zh-CN', inHkd);
    expect(market.map((row) => row.label)).toEqual(['年龄', '发生时间', '市场', '证券名称', '此前交易市场']);
    expect(market).toContainEqual({ label: '市场', value: '美股' });
    const withdrawal = factRows(t, 'vulnerable_client', ELDER_WITHDRAWAL, 'zh-CN', inHkd);
    expect(withdrawal.map((row) => row.label)).toEqual(['年龄', '发生时间', '币种', '金额', '折合（HKD）', '大额门槛（HKD）']);
    await i18n.changeLanguage('en');
    expect(factRows(t, 'vulnerable_client', { ...ELDER_MARKET, previousMarkets: '' }, 'en', inHkd)).toContainEqual({
      label: 'Markets traded before',
      value: 'none (first trade)',
    });
  });

  test('their HKD figures follow the chosen currency', async () => {
    await i18n.changeLanguage('en');
    expect(eventSubject('negative_equity', NEGATIVE, 'en', inUsd)).toBe('USD -15,360.06');
    expect(describeReason(t, 'negative_equity', NEGATIVE, 'en', inUsd)).toContain('USD -15,360.06 (cash USD -102,400.06');
    expect(factRows(t, 'negative_equity', NEGATIVE, 'en', inUsd)[0]).toEqual({ label: 'Net assets (USD)', value: '-15,360.06' });
  });

  test('list subjects tell two events of a kind apart', () => {
    expect(eventSubject('negative_equity', NEGATIVE, 'zh-CN', inHkd)).toBe('HKD -120,000.50');
    expect(eventSubject('concentration', CONCENTRATION, 'en', inHkd)).toBe('Tencent 77.0%');
    expect(eventSubject('particulars_changed_withdrawal', PARTICULARS, 'zh-CN', inHkd)).toBe('HKD 300,000.00');
    expect(eventSubject('vulnerable_client', ELDER_MARKET, 'zh-CN', inHkd)).toBe('US · 特斯拉');
    expect(eventSubject('vulnerable_client', ELDER_WITHDRAWAL, 'en', inHkd)).toBe('USD 20,000.00');
  });
});
