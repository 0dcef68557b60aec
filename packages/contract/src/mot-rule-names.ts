import type { AppLanguage } from './common';
import type { MotRule } from './endpoints/mot';

/**
 * What each MOT rule is called, in every language the app speaks: the one copy for the web's screens and the
 * server's WeCom card, so a card and the page it opens name an event alike. Beside the rule enum, so a new rule
 * fails typecheck until it has a name in all three. Zod-free: the web imports it directly
 * (`@broker/contract/mot-rule-names`), outside the first screen.
 */
export const MOT_RULE_NAMES: Record<AppLanguage, Record<MotRule, string>> = {
  'zh-CN': {
    birthday: '生日',
    large_deposit: '大额入金',
    large_withdrawal: '大额出金',
    transfer_in: '转入',
    transfer_out: '转出',
    dormant: '休眠账户',
    position_loss: '持仓大幅亏损',
    unfunded: '开户未入金',
    anniversary: '开户周年',
    id_expiry: '证件到期',
    risk_expiry: '风险评估到期',
    contact_removed: '企微联系已断开',
    follow_up: '跟进',
    negative_equity: '负资产',
    concentration: '持仓集中',
    particulars_changed_withdrawal: '改资料后大额出金',
    vulnerable_client: '长者客户',
  },
  'zh-HK': {
    birthday: '生日',
    large_deposit: '大額入金',
    large_withdrawal: '大額出金',
    transfer_in: '轉入',
    transfer_out: '轉出',
    dormant: '休眠賬戶',
    position_loss: '持倉大幅虧損',
    unfunded: '開戶未入金',
    anniversary: '開戶周年',
    id_expiry: '證件到期',
    risk_expiry: '風險評估到期',
    contact_removed: '企微聯繫已中斷',
    follow_up: '跟進',
    negative_equity: '負資產',
    concentration: '持倉集中',
    particulars_changed_withdrawal: '改資料後大額出金',
    vulnerable_client: '長者客戶',
  },
  en: {
    birthday: 'Birthday',
    large_deposit: 'Large deposit',
    large_withdrawal: 'Large withdrawal',
    transfer_in: 'Stock transfer in',
    transfer_out: 'Stock transfer out',
    dormant: 'Dormant account',
    position_loss: 'Large position loss',
    unfunded: 'Opened, not funded',
    anniversary: 'Account anniversary',
    id_expiry: 'ID expiring',
    risk_expiry: 'Risk assessment expiring',
    contact_removed: 'WeCom contact lost',
    follow_up: 'Follow-up',
    negative_equity: 'Negative equity',
    concentration: 'Concentrated position',
    particulars_changed_withdrawal: 'Details changed, then withdrawal',
    vulnerable_client: 'Elderly client',
  },
};
