import { MOT_RULE_NAMES } from '@broker/contract/mot-rule-names';
import { registerLocales } from './i18n';

/**
 * What the risk rules of issue 24 (ADR 0043) say on the event's screen: the reason sentence, its facts'
 * labels, the particulars and markets they name. Kept with the rule names (bundled in all three
 * languages) and merged into `mot.` with the feature's other strings.
 */
const riskZhCN = {
  reason: {
    negative_equity:
      '净资产为负：{{ccy}} {{netAssetsHkd}}（现金 {{ccy}} {{cashHkd}}，持仓市值 {{ccy}} {{marketValueHkd}}），欠款比资产多 {{ccy}} {{shortfallHkd}}；请联系客户存入资金或减持',
    concentration:
      '{{security}} 市值 {{ccy}} {{positionHkd}}，占客户资产 {{ccy}} {{assetsHkd}} 的 {{sharePct}}%，超过 {{minSharePct}}%（持仓 {{ccy}} {{minPositionHkd}} 起计）',
    particulars_changed_withdrawal:
      '{{changedAt}} 修改了{{fields}}，{{daysBetween}} 天后（{{occurredAt}}）出金 {{currency}} {{amount}}，不低于大额门槛 {{ccy}} {{thresholdHkd}}（标准：{{withinDays}} 天内）；请用修改前的联系方式向客户本人核实',
    vulnerable_client_withdrawal:
      '客户 {{age}} 岁（{{minAge}} 岁或以上），{{occurredAt}} 出金 {{currency}} {{amount}}，不低于大额门槛 {{ccy}} {{thresholdHkd}}；请关心资金用途，留意是否有人代为指使',
    vulnerable_client_market:
      '客户 {{age}} 岁（{{minAge}} 岁或以上），{{occurredAt}} 首次在{{market}}交易（{{security}}），此前只在{{previousMarkets}}交易；请确认客户了解该市场的风险',
    vulnerable_client_first_trade:
      '客户 {{age}} 岁（{{minAge}} 岁或以上），{{occurredAt}} 首次交易（{{market}}，{{security}}）；请确认客户了解相关风险',
    id_expiry_final: '最后提醒：身份证件将于 {{expiryDate}} 到期（{{when}}）',
    risk_expiry_final: '最后提醒：风险评估（{{assessedOn}} 完成，有效 {{validYears}} 年）将于 {{expiryDate}} 到期（{{when}}）',
  },
  fact: {
    netAssetsHkd: '净资产（{{ccy}}）',
    cashHkd: '现金（{{ccy}}）',
    marketValueHkd: '持仓市值（{{ccy}}）',
    shortfallHkd: '欠款超出（{{ccy}}）',
    positionHkd: '该持仓市值（{{ccy}}）',
    assetsHkd: '客户资产（{{ccy}}）',
    sharePct: '占比',
    changedAt: '资料修改时间',
    changedFields: '修改内容',
    changedBy: '修改人',
    changedBySystem: '系统',
    age: '年龄',
    market: '市场',
    previousMarkets: '此前交易市场',
  },
  particular: { phone: '电话号码', email: '电邮地址', separator: '、' },
  market: { HK: '港股', US: '美股', SH: '沪股', SZ: '深股', none: '无（首次交易）' },
};

const riskZhHK: typeof riskZhCN = {
  reason: {
    negative_equity:
      '淨資產為負：{{ccy}} {{netAssetsHkd}}（現金 {{ccy}} {{cashHkd}}，持倉市值 {{ccy}} {{marketValueHkd}}），欠款比資產多 {{ccy}} {{shortfallHkd}}；請聯絡客戶存入資金或減持',
    concentration:
      '{{security}} 市值 {{ccy}} {{positionHkd}}，佔客戶資產 {{ccy}} {{assetsHkd}} 的 {{sharePct}}%，超過 {{minSharePct}}%（持倉 {{ccy}} {{minPositionHkd}} 起計）',
    particulars_changed_withdrawal:
      '{{changedAt}} 修改了{{fields}}，{{daysBetween}} 天後（{{occurredAt}}）出金 {{currency}} {{amount}}，不低於大額門檻 {{ccy}} {{thresholdHkd}}（標準：{{withinDays}} 天內）；請用修改前的聯絡方式向客戶本人核實',
    vulnerable_client_withdrawal:
      '客戶 {{age}} 歲（{{minAge}} 歲或以上），{{occurredAt}} 出金 {{currency}} {{amount}}，不低於大額門檻 {{ccy}} {{thresholdHkd}}；請關心資金用途，留意是否有人代為指使',
    vulnerable_client_market:
      '客戶 {{age}} 歲（{{minAge}} 歲或以上），{{occurredAt}} 首次在{{market}}交易（{{security}}），此前只在{{previousMarkets}}交易；請確認客戶了解該市場的風險',
    vulnerable_client_first_trade:
      '客戶 {{age}} 歲（{{minAge}} 歲或以上），{{occurredAt}} 首次交易（{{market}}，{{security}}）；請確認客戶了解相關風險',
    id_expiry_final: '最後提醒：身份證件將於 {{expiryDate}} 到期（{{when}}）',
    risk_expiry_final: '最後提醒：風險評估（{{assessedOn}} 完成，有效 {{validYears}} 年）將於 {{expiryDate}} 到期（{{when}}）',
  },
  fact: {
    netAssetsHkd: '淨資產（{{ccy}}）',
    cashHkd: '現金（{{ccy}}）',
    marketValueHkd: '持倉市值（{{ccy}}）',
    shortfallHkd: '欠款超出（{{ccy}}）',
    positionHkd: '該持倉市值（{{ccy}}）',
    assetsHkd: '客戶資產（{{ccy}}）',
    sharePct: '佔比',
    changedAt: '資料修改時間',
    changedFields: '修改內容',
    changedBy: '修改人',
    changedBySystem: '系統',
    age: '年齡',
    market: '市場',
    previousMarkets: '此前交易市場',
  },
  particular: { phone: '電話號碼', email: '電郵地址', separator: '、' },
  market: { HK: '港股', US: '美股', SH: '滬股', SZ: '深股', none: '無（首次交易）' },
};

const riskEn: typeof riskZhCN = {
  reason: {
    negative_equity:
      'Net assets are negative: {{ccy}} {{netAssetsHkd}} (cash {{ccy}} {{cashHkd}}, holdings {{ccy}} {{marketValueHkd}}); the client owes {{ccy}} {{shortfallHkd}} more than they hold. Ask for a deposit or a reduction',
    concentration:
      "{{security}} worth {{ccy}} {{positionHkd}} is {{sharePct}}% of the client's assets of {{ccy}} {{assetsHkd}}, over {{minSharePct}}% (positions from {{ccy}} {{minPositionHkd}})",
    particulars_changed_withdrawal:
      '{{fields}} changed on {{changedAt}}, then {{daysBetween}} days later ({{occurredAt}}) a withdrawal of {{currency}} {{amount}}, at or above the {{ccy}} {{thresholdHkd}} threshold (limit: within {{withinDays}} days). Verify with the client in person, through the contact details held before the change',
    vulnerable_client_withdrawal:
      'Client aged {{age}} ({{minAge}} or over) withdrew {{currency}} {{amount}} on {{occurredAt}}, at or above the {{ccy}} {{thresholdHkd}} threshold. Ask what it is for, and whether anyone is pressing them',
    vulnerable_client_market:
      "Client aged {{age}} ({{minAge}} or over) traded in the {{market}} market for the first time on {{occurredAt}} ({{security}}), having traded only in {{previousMarkets}} before. Make sure they understand that market's risks",
    vulnerable_client_first_trade:
      'Client aged {{age}} ({{minAge}} or over) made a first trade on {{occurredAt}} ({{market}}, {{security}}). Make sure they understand the risks',
    id_expiry_final: 'Final reminder: identity document expires on {{expiryDate}} ({{when}})',
    risk_expiry_final:
      'Final reminder: risk assessment of {{assessedOn}} (valid {{validYears}} years) expires on {{expiryDate}} ({{when}})',
  },
  fact: {
    netAssetsHkd: 'Net assets ({{ccy}})',
    cashHkd: 'Cash ({{ccy}})',
    marketValueHkd: 'Holdings ({{ccy}})',
    shortfallHkd: 'Owed beyond assets ({{ccy}})',
    positionHkd: 'Position ({{ccy}})',
    assetsHkd: 'Client assets ({{ccy}})',
    sharePct: 'Share',
    changedAt: 'Particulars changed',
    changedFields: 'What changed',
    changedBy: 'Changed by',
    changedBySystem: 'System',
    age: 'Age',
    market: 'Market',
    previousMarkets: 'Markets traded before',
  },
  particular: { phone: 'Phone number', email: 'Email address', separator: ', ' },
  market: { HK: 'Hong Kong', US: 'US', SH: 'Shanghai', SZ: 'Shenzhen', none: 'none (first trade)' },
};

/**
 * The MOT rules' names, `mot.rule.<rule>` (their one copy is the contract's, which the WeCom card reads too), for
 * the MOT screens, the client pages, the contact log and the audit trail. Shared, not exported by features/mot's
 * index: that index is in the first screen's entry (through the route table), and these ~2.7 kB gzip are not
 * (first-screen budget, ADR 0032).
 */
const RULE_NAMES = {
  'zh-CN': { mot: { rule: MOT_RULE_NAMES['zh-CN'], ...riskZhCN } },
  'zh-HK': { mot: { rule: MOT_RULE_NAMES['zh-HK'], ...riskZhHK } },
  en: { mot: { rule: MOT_RULE_NAMES.en, ...riskEn } },
};

/** Adds the rule names (and the risk rules' texts) to i18n (all three languages: they are few); registering again is a no-op. */
export const registerMotRuleNames = () => registerLocales(RULE_NAMES);

declare module './translator' {
  interface StringSets {
    motRuleNames: (typeof RULE_NAMES)['zh-CN'];
  }
}
