import { registerLocales } from '../../shared/i18n/i18n';
import { byLanguage, type Entries, type InOneLanguage } from '../../shared/i18n/by-language';
import { registerContactLabels } from '../../shared/i18n/contact-labels';
import { registerMotRuleNames } from '../../shared/i18n/mot-rule-names';

/** The audit page's strings, under `audit.`; registered when the page loads. */
const audit = {
  total: ['最近的操作', '最近的操作', 'Recent activity'],
  filter: {
    all: ['全部', '全部', 'All'],
    customer: ['客户资料', '客戶資料', 'Profiles'],
    kyc_binding: ['KYC 绑定', 'KYC 綁定', 'KYC'],
    mot_event: ['MOT 事件', 'MOT 事件', 'MOT events'],
    staff: ['设置', '設定', 'Settings'],
    contact_record: ['联系记录', '聯絡記錄', 'Contact log'],
  },
  more: ['加载更多', '載入更多', 'Load more'],
  end: ['没有更多了', '沒有更多了', 'No more'],
  empty: ['还没有操作记录', '還沒有操作記錄', 'No activity yet'],
  emptyDescription: [
    '编辑客户资料、绑定企业微信联系人、处理 MOT 事件、记录客户联系后，记录会出现在这里',
    '編輯客戶資料、綁定企業微信聯絡人、處理 MOT 事件、記錄客戶聯絡後，記錄會出現在這裡',
    'Profile edits, WeCom contact bindings, MOT events you handle and contacts you log will show here',
  ],
  action: {
    'customer.update': ['编辑了 {{customer}} 的资料', '編輯了 {{customer}} 的資料', "Edited {{customer}}'s profile"],
    'kyc.bind': [
      '将企业微信联系人 {{contact}} 绑定到 {{customer}}',
      '將企業微信聯絡人 {{contact}} 綁定到 {{customer}}',
      'Bound WeCom contact {{contact}} to {{customer}}',
    ],
    'kyc.unbind': [
      '解除了企业微信联系人 {{contact}} 与 {{customer}} 的绑定',
      '解除了企業微信聯絡人 {{contact}} 與 {{customer}} 的綁定',
      'Unbound WeCom contact {{contact}} from {{customer}}',
    ],
    'mot.handle': [
      '处理了 {{customer}} 的事件「{{rule}}」',
      '處理了 {{customer}} 的事件「{{rule}}」',
      'Handled event "{{rule}}" of {{customer}}',
    ],
    'mot.setMinCashIO': ['修改了大额出入金提醒门槛', '修改了大額出入金提醒門檻', 'Changed the large deposit/withdrawal threshold'],
    'mot.setFold': ['修改了 MOT 列表的显示方式', '修改了 MOT 列表的顯示方式', 'Changed how the MOT list is shown'],
    'mot.snooze': [
      '将 {{customer}} 的事件「{{rule}}」延后',
      '將 {{customer}} 的事件「{{rule}}」延後',
      'Snoozed event "{{rule}}" of {{customer}}',
    ],
    'mot.setPush': ['修改了 MOT 企业微信提醒', '修改了 MOT 企業微信提醒', 'Changed MOT reminders in WeCom'],
    'contact.add': ['记录了与 {{customer}} 的联系', '記錄了與 {{customer}} 的聯絡', 'Logged a contact with {{customer}}'],
    'contact.edit': [
      '修改了与 {{customer}} 的联系记录（锁定前）',
      '修改了與 {{customer}} 的聯絡記錄（鎖定前）',
      'Edited a contact record of {{customer}} (before it locked)',
    ],
    'contact.correct': [
      '更正了与 {{customer}} 的联系记录（保留原版本）',
      '更正了與 {{customer}} 的聯絡記錄（保留原版本）',
      'Corrected a contact record of {{customer}} (the earlier version is kept)',
    ],
    'contact.export': ['导出了 {{customer}} 的联系记录', '匯出了 {{customer}} 的聯絡記錄', "Exported {{customer}}'s contact log"],
    'customer.revealPhone': [
      '查看了 {{customer}} 的完整电话号码',
      '查看了 {{customer}} 的完整電話號碼',
      "Viewed {{customer}}'s full phone number",
    ],
    'customer.callPhone': ['拨打了 {{customer}} 的电话', '撥打了 {{customer}} 的電話', 'Called {{customer}}'],
  },
  field: {
    phone: ['手机', '手機', 'Mobile'],
    email: ['邮箱', '電郵', 'Email'],
    nameEn: ['英文名', '英文名', 'English name'],
    tags: ['标签', '標籤', 'Tags'],
    remark: ['备注', '備註', 'Remark'],
    status: ['状态', '狀態', 'Status'],
    minCashIO: ['门槛', '門檻', 'Threshold'],
    motFold: ['按客户折叠', '按客戶摺疊', 'One row per client'],
    motPush: ['企业微信提醒', '企業微信提醒', 'Reminders in WeCom'],
    channel: ['方式', '方式', 'Channel'],
    outcome: ['结果', '結果', 'Outcome'],
    purpose: ['目的', '目的', 'Purpose'],
    note: ['内容', '內容', 'Note'],
    nextStep: ['下一步', '下一步', 'Next step'],
    nextStepDate: ['下一步日期', '下一步日期', 'Next step on'],
    suitability: ['适合性理由', '適合性理由', 'Suitability rationale'],
    servedAt: ['联系时间', '聯絡時間', 'Contact time'],
    correctionReason: ['更正原因', '更正原因', 'Reason for correction'],
    records: ['条数', '條數', 'Records'],
    dueDate: ['事件日期', '事件日期', 'Due day'],
    reason: ['原因', '原因', 'Reason'],
  },
  value: {
    empty: ['（空）', '（空）', '(empty)'],
    yes: ['是', '是', 'on'],
    no: ['否', '否', 'off'],
    new: ['未读', '未讀', 'new'],
    seen: ['待处理', '待處理', 'to do'],
    handled: ['已处理', '已處理', 'handled'],
    client_unavailable: ['客户暂时联系不上', '客戶暫時聯絡不上', 'client not reachable now'],
    client_asked: ['客户要求改期', '客戶要求改期', 'client asked for later'],
    awaiting_documents: ['等待客户文件', '等待客戶文件', 'waiting for documents'],
    awaiting_market: ['等待市场时机', '等待市場時機', 'waiting for the market'],
  },
  unknownCustomer: ['客户', '客戶', 'a client'],
} satisfies Entries;

// An event's rule is named as the MOT screens name it; a contact's channel and purpose as the contact log names them.
void registerMotRuleNames();
void registerContactLabels();
void registerLocales(byLanguage({ audit }));

declare module '../../shared/i18n/translator' {
  interface StringSets {
    audit: InOneLanguage<{ audit: typeof audit }>;
  }
}
