import { registerLocales } from '../../shared/i18n/i18n';

/** The MOT rules' names, `mot.rule.<rule>`: one copy for the MOT screens and the audit trail. */
const zhCN = {
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
};

const zhHK: typeof zhCN = {
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
};

const en: typeof zhCN = {
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
};

const RULE_NAMES = { 'zh-CN': { mot: { rule: zhCN } }, 'zh-HK': { mot: { rule: zhHK } }, en: { mot: { rule: en } } };

/** Adds the rule names to i18n (all three languages: they are few); registering again is a no-op. */
export const registerMotRuleNames = () => registerLocales(RULE_NAMES);
