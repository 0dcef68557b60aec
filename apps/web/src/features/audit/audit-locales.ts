import { registerLocales } from '../../shared/i18n/i18n';
import { registerMotRuleNames } from '../mot';

/** The audit page's strings, under `audit.`; registered when the page loads. */
const zhCN = {
  total: '最近的操作',
  filter: { all: '全部', customer: '客户资料', kyc_binding: 'KYC 绑定', mot_event: 'MOT 事件', staff: '设置' },
  more: '加载更多',
  end: '没有更多了',
  empty: '还没有操作记录',
  emptyDescription: '编辑客户资料、绑定企业微信联系人、处理 MOT 事件后，记录会出现在这里',
  action: {
    'customer.update': '编辑了 {{customer}} 的资料',
    'kyc.bind': '将企业微信联系人 {{contact}} 绑定到 {{customer}}',
    'kyc.unbind': '解除了企业微信联系人 {{contact}} 与 {{customer}} 的绑定',
    'mot.handle': '处理了 {{customer}} 的事件「{{rule}}」',
    'mot.setMinCashIO': '修改了大额出入金提醒门槛',
    'mot.setFold': '修改了 MOT 列表的显示方式',
    unknown: '{{action}}',
  },
  field: {
    phone: '手机',
    email: '邮箱',
    nameEn: '英文名',
    tags: '标签',
    remark: '备注',
    status: '状态',
    minCashIO: '门槛',
    motFold: '按客户折叠',
    channel: '方式',
    outcome: '结果',
  },
  value: {
    empty: '（空）',
    yes: '是',
    no: '否',
    new: '未读',
    seen: '待处理',
    handled: '已处理',
    phone: '电话',
    wecom: '企业微信',
    meeting: '面谈',
    other: '其他',
  },
  unknownCustomer: '客户',
};

type AuditMessages = typeof zhCN;

const zhHK: AuditMessages = {
  total: '最近的操作',
  filter: { all: '全部', customer: '客戶資料', kyc_binding: 'KYC 綁定', mot_event: 'MOT 事件', staff: '設定' },
  more: '載入更多',
  end: '沒有更多了',
  empty: '還沒有操作記錄',
  emptyDescription: '編輯客戶資料、綁定企業微信聯絡人、處理 MOT 事件後，記錄會出現在這裡',
  action: {
    'customer.update': '編輯了 {{customer}} 的資料',
    'kyc.bind': '將企業微信聯絡人 {{contact}} 綁定到 {{customer}}',
    'kyc.unbind': '解除了企業微信聯絡人 {{contact}} 與 {{customer}} 的綁定',
    'mot.handle': '處理了 {{customer}} 的事件「{{rule}}」',
    'mot.setMinCashIO': '修改了大額出入金提醒門檻',
    'mot.setFold': '修改了 MOT 列表的顯示方式',
    unknown: '{{action}}',
  },
  field: {
    phone: '手機',
    email: '電郵',
    nameEn: '英文名',
    tags: '標籤',
    remark: '備註',
    status: '狀態',
    minCashIO: '門檻',
    motFold: '按客戶摺疊',
    channel: '方式',
    outcome: '結果',
  },
  value: {
    empty: '（空）',
    yes: '是',
    no: '否',
    new: '未讀',
    seen: '待處理',
    handled: '已處理',
    phone: '電話',
    wecom: '企業微信',
    meeting: '面談',
    other: '其他',
  },
  unknownCustomer: '客戶',
};

const en: AuditMessages = {
  total: 'Recent activity',
  filter: { all: 'All', customer: 'Profiles', kyc_binding: 'KYC', mot_event: 'MOT events', staff: 'Settings' },
  more: 'Load more',
  end: 'No more',
  empty: 'No activity yet',
  emptyDescription: 'Profile edits, WeCom contact bindings and MOT events you handle will show here',
  action: {
    'customer.update': "Edited {{customer}}'s profile",
    'kyc.bind': 'Bound WeCom contact {{contact}} to {{customer}}',
    'kyc.unbind': 'Unbound WeCom contact {{contact}} from {{customer}}',
    'mot.handle': 'Handled event "{{rule}}" of {{customer}}',
    'mot.setMinCashIO': 'Changed the large deposit/withdrawal threshold',
    'mot.setFold': 'Changed how the MOT list is shown',
    unknown: '{{action}}',
  },
  field: {
    phone: 'Mobile',
    email: 'Email',
    nameEn: 'English name',
    tags: 'Tags',
    remark: 'Remark',
    status: 'Status',
    minCashIO: 'Threshold',
    motFold: 'One row per client',
    channel: 'Channel',
    outcome: 'Outcome',
  },
  value: {
    empty: '(empty)',
    yes: 'on',
    no: 'off',
    new: 'new',
    seen: 'to do',
    handled: 'handled',
    phone: 'phone',
    wecom: 'WeCom',
    meeting: 'meeting',
    other: 'other',
  },
  unknownCustomer: 'a client',
};

// An event's rule is named as the MOT screens name it.
void registerMotRuleNames();
void registerLocales({ 'zh-CN': { audit: zhCN }, 'zh-HK': { audit: zhHK }, en: { audit: en } });
