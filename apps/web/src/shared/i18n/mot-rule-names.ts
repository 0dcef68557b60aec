import { MOT_RULE_NAMES } from '@broker/contract/mot-rule-names';
import { byLanguage, type Entries } from './by-language';
import { registerLocales } from './i18n';
import type { TFunction } from './translator';

/** The risk rules' words on the event's screen (ADR 0043), kept with the rule names (all three languages) and merged into `mot.`. */
const risk = {
  reason: {
    negative_equity: [
      '净资产为负：{{ccy}} {{netAssetsHkd}}（现金 {{ccy}} {{cashHkd}}，持仓市值 {{ccy}} {{marketValueHkd}}），欠款比资产多 {{ccy}} {{shortfallHkd}}；请联系客户存入资金或减持',
      '淨資產為負：{{ccy}} {{netAssetsHkd}}（現金 {{ccy}} {{cashHkd}}，持倉市值 {{ccy}} {{marketValueHkd}}），欠款比資產多 {{ccy}} {{shortfallHkd}}；請聯絡客戶存入資金或減持',
      'Net assets are negative: {{ccy}} {{netAssetsHkd}} (cash {{ccy}} {{cashHkd}}, holdings {{ccy}} {{marketValueHkd}}); the client owes {{ccy}} {{shortfallHkd}} more than they hold. Ask for a deposit or a reduction',
    ],
    concentration: [
      '{{security}} 市值 {{ccy}} {{positionHkd}}，占客户资产 {{ccy}} {{assetsHkd}} 的 {{sharePct}}%，超过 {{minSharePct}}%（持仓 {{ccy}} {{minPositionHkd}} 起计）',
      '{{security}} 市值 {{ccy}} {{positionHkd}}，佔客戶資產 {{ccy}} {{assetsHkd}} 的 {{sharePct}}%，超過 {{minSharePct}}%（持倉 {{ccy}} {{minPositionHkd}} 起計）',
      "{{security}} worth {{ccy}} {{positionHkd}} is {{sharePct}}% of the client's assets of {{ccy}} {{assetsHkd}}, over {{minSharePct}}% (positions from {{ccy}} {{minPositionHkd}})",
    ],
    particulars_changed_withdrawal: [
      '{{changedAt}} 修改了{{fields}}，{{daysBetween}} 天后（{{occurredAt}}）出金 {{currency}} {{amount}}，不低于大额门槛 {{ccy}} {{thresholdHkd}}（标准：{{withinDays}} 天内）；请用修改前的联系方式向客户本人核实',
      '{{changedAt}} 修改了{{fields}}，{{daysBetween}} 天後（{{occurredAt}}）出金 {{currency}} {{amount}}，不低於大額門檻 {{ccy}} {{thresholdHkd}}（標準：{{withinDays}} 天內）；請用修改前的聯絡方式向客戶本人核實',
      '{{fields}} changed on {{changedAt}}, then {{daysBetween}} days later ({{occurredAt}}) a withdrawal of {{currency}} {{amount}}, at or above the {{ccy}} {{thresholdHkd}} threshold (limit: within {{withinDays}} days). Verify with the client in person, through the contact details held before the change',
    ],
    vulnerable_client_withdrawal: [
      '客户 {{age}} 岁（{{minAge}} 岁或以上），{{occurredAt}} 出金 {{currency}} {{amount}}，不低于大额门槛 {{ccy}} {{thresholdHkd}}；请关心资金用途，留意是否有人代为指使',
      '客戶 {{age}} 歲（{{minAge}} 歲或以上），{{occurredAt}} 出金 {{currency}} {{amount}}，不低於大額門檻 {{ccy}} {{thresholdHkd}}；請關心資金用途，留意是否有人代為指使',
      'Client aged {{age}} ({{minAge}} or over) withdrew {{currency}} {{amount}} on {{occurredAt}}, at or above the {{ccy}} {{thresholdHkd}} threshold. Ask what it is for, and whether anyone is pressing them',
    ],
    vulnerable_client_market: [
      '客户 {{age}} 岁（{{minAge}} 岁或以上），{{occurredAt}} 首次在{{market}}交易（{{security}}），此前只在{{previousMarkets}}交易；请确认客户了解该市场的风险',
      '客戶 {{age}} 歲（{{minAge}} 歲或以上），{{occurredAt}} 首次在{{market}}交易（{{security}}），此前只在{{previousMarkets}}交易；請確認客戶了解該市場的風險',
      "Client aged {{age}} ({{minAge}} or over) traded in the {{market}} market for the first time on {{occurredAt}} ({{security}}), having traded only in {{previousMarkets}} before. Make sure they understand that market's risks",
    ],
    vulnerable_client_first_trade: [
      '客户 {{age}} 岁（{{minAge}} 岁或以上），{{occurredAt}} 首次交易（{{market}}，{{security}}）；请确认客户了解相关风险',
      '客戶 {{age}} 歲（{{minAge}} 歲或以上），{{occurredAt}} 首次交易（{{market}}，{{security}}）；請確認客戶了解相關風險',
      'Client aged {{age}} ({{minAge}} or over) made a first trade on {{occurredAt}} ({{market}}, {{security}}). Make sure they understand the risks',
    ],
    id_expiry_final: [
      '最后提醒：身份证件将于 {{expiryDate}} 到期（{{when}}）',
      '最後提醒：身份證件將於 {{expiryDate}} 到期（{{when}}）',
      'Final reminder: identity document expires on {{expiryDate}} ({{when}})',
    ],
    risk_expiry_final: [
      '最后提醒：风险评估（{{assessedOn}} 完成，有效 {{validYears}} 年）将于 {{expiryDate}} 到期（{{when}}）',
      '最後提醒：風險評估（{{assessedOn}} 完成，有效 {{validYears}} 年）將於 {{expiryDate}} 到期（{{when}}）',
      'Final reminder: risk assessment of {{assessedOn}} (valid {{validYears}} years) expires on {{expiryDate}} ({{when}})',
    ],
  },
  fact: {
    netAssetsHkd: ['净资产（{{ccy}}）', '淨資產（{{ccy}}）', 'Net assets ({{ccy}})'],
    cashHkd: ['现金（{{ccy}}）', '現金（{{ccy}}）', 'Cash ({{ccy}})'],
    marketValueHkd: ['持仓市值（{{ccy}}）', '持倉市值（{{ccy}}）', 'Holdings ({{ccy}})'],
    shortfallHkd: ['欠款超出（{{ccy}}）', '欠款超出（{{ccy}}）', 'Owed beyond assets ({{ccy}})'],
    positionHkd: ['该持仓市值（{{ccy}}）', '該持倉市值（{{ccy}}）', 'Position ({{ccy}})'],
    assetsHkd: ['客户资产（{{ccy}}）', '客戶資產（{{ccy}}）', 'Client assets ({{ccy}})'],
    sharePct: ['占比', '佔比', 'Share'],
    changedAt: ['资料修改时间', '資料修改時間', 'Particulars changed'],
    changedFields: ['修改内容', '修改內容', 'What changed'],
    changedBy: ['修改人', '修改人', 'Changed by'],
    changedBySystem: ['系统', '系統', 'System'],
    age: ['年龄', '年齡', 'Age'],
    market: ['市场', '市場', 'Market'],
    previousMarkets: ['此前交易市场', '此前交易市場', 'Markets traded before'],
  },
  particular: {
    phone: ['电话号码', '電話號碼', 'Phone number'],
    email: ['电邮地址', '電郵地址', 'Email address'],
    separator: ['、', '、', ', '],
  },
  market: {
    HK: ['港股', '港股', 'Hong Kong'],
    US: ['美股', '美股', 'US'],
    SH: ['沪股', '滬股', 'Shanghai'],
    SZ: ['深股', '深股', 'Shenzhen'],
    none: ['无（首次交易）', '無（首次交易）', 'none (first trade)'],
  },
} satisfies Entries;

const riskIn = byLanguage(risk);

/**
 * The MOT rules' names, `mot.rule.<rule>` (the contract's copy), for every screen that names a rule. Not exported by features/mot's
 * index, which is in the first screen's entry, and these strings are not (ADR 0032).
 */
const RULE_NAMES = {
  'zh-CN': { mot: { rule: MOT_RULE_NAMES['zh-CN'], ...riskIn['zh-CN'] } },
  'zh-HK': { mot: { rule: MOT_RULE_NAMES['zh-HK'], ...riskIn['zh-HK'] } },
  en: { mot: { rule: MOT_RULE_NAMES.en, ...riskIn.en } },
};

/** A rule's name: a rule newer than this app reads as its code. */
export const motRuleName = (rule: string, t: TFunction) => t(`mot.rule.${rule}`, { defaultValue: rule });

/** Adds the rule names (and the risk rules' texts) to i18n (all three languages: they are few); registering again is a no-op. */
export const registerMotRuleNames = () => registerLocales(RULE_NAMES);

declare module './translator' {
  interface StringSets {
    motRuleNames: (typeof RULE_NAMES)['zh-CN'];
  }
}
