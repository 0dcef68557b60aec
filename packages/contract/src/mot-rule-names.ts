import type { AppLanguage } from './common';
import type { MotRule } from './endpoints/mot';

/**
 * What each MOT rule is called: the one copy for the web's screens and the server's WeCom card, so a card and the page
 * it opens name an event alike; a new rule fails typecheck until it has its three names. Zod-free: the web imports it
 * directly (`@broker/contract/mot-rule-names`), outside the first screen.
 */
const NAMES: Record<MotRule, readonly [zhCN: string, zhHK: string, en: string]> = {
  birthday: ['生日', '生日', 'Birthday'],
  large_deposit: ['大额入金', '大額入金', 'Large deposit'],
  large_withdrawal: ['大额出金', '大額出金', 'Large withdrawal'],
  transfer_in: ['转入', '轉入', 'Stock transfer in'],
  transfer_out: ['转出', '轉出', 'Stock transfer out'],
  dormant: ['休眠账户', '休眠賬戶', 'Dormant account'],
  position_loss: ['持仓大幅亏损', '持倉大幅虧損', 'Large position loss'],
  unfunded: ['开户未入金', '開戶未入金', 'Opened, not funded'],
  anniversary: ['开户周年', '開戶周年', 'Account anniversary'],
  id_expiry: ['证件到期', '證件到期', 'ID expiring'],
  risk_expiry: ['风险评估到期', '風險評估到期', 'Risk assessment expiring'],
  contact_removed: ['企微联系已断开', '企微聯繫已中斷', 'WeCom contact lost'],
  follow_up: ['跟进', '跟進', 'Follow-up'],
  negative_equity: ['负资产', '負資產', 'Negative equity'],
  concentration: ['持仓集中', '持倉集中', 'Concentrated position'],
  particulars_changed_withdrawal: ['改资料后大额出金', '改資料後大額出金', 'Details changed, then withdrawal'],
  vulnerable_client: ['长者客户', '長者客戶', 'Elderly client'],
};

const namesIn = (column: number) =>
  Object.fromEntries(Object.entries(NAMES).map(([rule, names]) => [rule, names[column]])) as Record<MotRule, string>;

export const MOT_RULE_NAMES: Record<AppLanguage, Record<MotRule, string>> = { 'zh-CN': namesIn(0), 'zh-HK': namesIn(1), en: namesIn(2) };
