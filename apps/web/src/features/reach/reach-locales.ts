import { registerLocales } from '../../shared/i18n/i18n';

/** The reach actions' strings, under `reach.`; registered when the feature loads. */
const zhCN = {
  title: '联系 {{name}}',
  chat: '企业微信',
  chatLabel: '在企业微信中与客户聊天',
  bind: '绑定企微',
  bindLabel: '客户未绑定企业微信联系人，去绑定',
  stale: '企微联系已断开',
  call: '打电话',
  callLabel: '拨打 {{phone}}',
  noPhone: '无电话',
  reveal: '显示号码',
  revealed: '已显示完整号码（已记录）',
  send: '发送问候',
  sendLabel: '向当前聊天发送模板消息',
  notice: '显示或拨打号码会记入操作记录',
  log: {
    title: '记录这次联系？',
    wecom: '已打开与 {{name}} 的企业微信聊天。聊完后记下要点，之后可以随时查阅。',
    phone: '正在拨打 {{name}} 的电话。通话后记下要点，之后可以随时查阅。',
    confirm: '去记录',
    later: '稍后',
  },
  templates: {
    title: '发送到当前聊天',
    kind: { text: '文字', card: '卡片' },
    language: { 'zh-CN': '简体', 'zh-HK': '繁體', en: 'English' },
    name: { birthday: '生日祝福', anniversary: '开户周年', largeDeposit: '大额入金致谢', documentExpiry: '证件到期提醒' },
    preview: '预览',
    send: '发送',
    sent: '已发送到当前聊天',
  },
  failed: {
    chat: '无法打开企业微信聊天：{{detail}}',
    send: '发送失败：{{detail}}',
    bridge: '请在企业微信中打开本应用后再试',
    register: '企业微信未能确认本应用的身份，请稍后再试',
  },
};

type ReachMessages = typeof zhCN;

const zhHK: ReachMessages = {
  title: '聯絡 {{name}}',
  chat: '企業微信',
  chatLabel: '在企業微信中與客戶聊天',
  bind: '綁定企微',
  bindLabel: '客戶未綁定企業微信聯絡人，去綁定',
  stale: '企微聯絡已斷開',
  call: '打電話',
  callLabel: '撥打 {{phone}}',
  noPhone: '無電話',
  reveal: '顯示號碼',
  revealed: '已顯示完整號碼（已記錄）',
  send: '發送問候',
  sendLabel: '向當前聊天發送範本訊息',
  notice: '顯示或撥打號碼會記入操作記錄',
  log: {
    title: '記錄這次聯絡？',
    wecom: '已開啟與 {{name}} 的企業微信聊天。傾談後記下要點，之後可以隨時查閱。',
    phone: '正在撥打 {{name}} 的電話。通話後記下要點，之後可以隨時查閱。',
    confirm: '去記錄',
    later: '稍後',
  },
  templates: {
    title: '發送到當前聊天',
    kind: { text: '文字', card: '卡片' },
    language: { 'zh-CN': '简体', 'zh-HK': '繁體', en: 'English' },
    name: { birthday: '生日祝福', anniversary: '開戶週年', largeDeposit: '大額存款致謝', documentExpiry: '證件到期提示' },
    preview: '預覽',
    send: '發送',
    sent: '已發送到當前聊天',
  },
  failed: {
    chat: '無法開啟企業微信聊天：{{detail}}',
    send: '發送失敗：{{detail}}',
    bridge: '請在企業微信中開啟本應用後再試',
    register: '企業微信未能確認本應用的身份，請稍後再試',
  },
};

const en: ReachMessages = {
  title: 'Contact {{name}}',
  chat: 'WeCom',
  chatLabel: 'Chat with the client in WeCom',
  bind: 'Bind WeCom',
  bindLabel: 'No WeCom contact is bound to this client; bind one',
  stale: 'WeCom contact lost',
  call: 'Call',
  callLabel: 'Call {{phone}}',
  noPhone: 'No phone',
  reveal: 'Show number',
  revealed: 'Full number shown (recorded)',
  send: 'Send greeting',
  sendLabel: 'Send a template message into this chat',
  notice: 'Showing or calling a number is recorded in your activity',
  log: {
    title: 'Log this contact?',
    wecom: 'Your WeCom chat with {{name}} is open. Note the main points afterwards, to find them again any time.',
    phone: 'Calling {{name}}. Note the main points after the call, to find them again any time.',
    confirm: 'Log it',
    later: 'Later',
  },
  templates: {
    title: 'Send into this chat',
    kind: { text: 'Text', card: 'Card' },
    language: { 'zh-CN': '简体', 'zh-HK': '繁體', en: 'English' },
    name: { birthday: 'Birthday', anniversary: 'Anniversary', largeDeposit: 'Deposit thanks', documentExpiry: 'Document expiry' },
    preview: 'Preview',
    send: 'Send',
    sent: 'Sent into this chat',
  },
  failed: {
    chat: 'Could not open the WeCom chat: {{detail}}',
    send: 'Not sent: {{detail}}',
    bridge: 'Open the app inside WeCom and try again',
    register: 'WeCom could not confirm this app; try again shortly',
  },
};

export const reachLocalesReady = registerLocales({ 'zh-CN': { reach: zhCN }, 'zh-HK': { reach: zhHK }, en: { reach: en } });

declare module '../../shared/i18n/translator' {
  interface StringSets {
    reach: { reach: typeof zhCN };
  }
}
