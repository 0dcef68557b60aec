import { registerLocales } from '../../shared/i18n/i18n';
import { byLanguage, type Entries, type InOneLanguage } from '../../shared/i18n/by-language';

/** The reach actions' strings, under `reach.`; registered when the feature loads. */
const reach = {
  title: ['联系 {{name}}', '聯絡 {{name}}', 'Contact {{name}}'],
  chat: ['企业微信', '企業微信', 'WeCom'],
  chatLabel: ['在企业微信中与客户聊天', '在企業微信中與客戶聊天', 'Chat with the client in WeCom'],
  bind: ['绑定企微', '綁定企微', 'Bind WeCom'],
  bindLabel: ['客户未绑定企业微信联系人，去绑定', '客戶未綁定企業微信聯絡人，去綁定', 'No WeCom contact is bound to this client; bind one'],
  stale: ['企微联系已断开', '企微聯絡已斷開', 'WeCom contact lost'],
  call: ['打电话', '打電話', 'Call'],
  callLabel: ['拨打 {{phone}}', '撥打 {{phone}}', 'Call {{phone}}'],
  noPhone: ['无电话', '無電話', 'No phone'],
  reveal: ['显示号码', '顯示號碼', 'Show number'],
  revealed: ['已显示完整号码（已记录）', '已顯示完整號碼（已記錄）', 'Full number shown (recorded)'],
  send: ['发送问候', '發送問候', 'Send greeting'],
  sendLabel: ['向当前聊天发送模板消息', '向當前聊天發送範本訊息', 'Send a template message into this chat'],
  notice: ['显示或拨打号码会记入操作记录', '顯示或撥打號碼會記入操作記錄', 'Showing or calling a number is recorded in your activity'],
  log: {
    title: ['记录这次联系？', '記錄這次聯絡？', 'Log this contact?'],
    wecom: [
      '已打开与 {{name}} 的企业微信聊天。聊完后记下要点，之后可以随时查阅。',
      '已開啟與 {{name}} 的企業微信聊天。傾談後記下要點，之後可以隨時查閱。',
      'Your WeCom chat with {{name}} is open. Note the main points afterwards, to find them again any time.',
    ],
    phone: [
      '正在拨打 {{name}} 的电话。通话后记下要点，之后可以随时查阅。',
      '正在撥打 {{name}} 的電話。通話後記下要點，之後可以隨時查閱。',
      'Calling {{name}}. Note the main points after the call, to find them again any time.',
    ],
    confirm: ['去记录', '去記錄', 'Log it'],
    later: ['稍后', '稍後', 'Later'],
  },
  templates: {
    title: ['发送到当前聊天', '發送到當前聊天', 'Send into this chat'],
    kind: { text: ['文字', '文字', 'Text'], card: ['卡片', '卡片', 'Card'] },
    language: { 'zh-CN': ['简体', '简体', '简体'], 'zh-HK': ['繁體', '繁體', '繁體'], en: ['English', 'English', 'English'] },
    name: {
      birthday: ['生日祝福', '生日祝福', 'Birthday'],
      anniversary: ['开户周年', '開戶週年', 'Anniversary'],
      largeDeposit: ['大额入金致谢', '大額存款致謝', 'Deposit thanks'],
      documentExpiry: ['证件到期提醒', '證件到期提示', 'Document expiry'],
    },
    preview: ['预览', '預覽', 'Preview'],
    send: ['发送', '發送', 'Send'],
    sent: ['已发送到当前聊天', '已發送到當前聊天', 'Sent into this chat'],
  },
  failed: {
    chat: ['无法打开企业微信聊天：{{detail}}', '無法開啟企業微信聊天：{{detail}}', 'Could not open the WeCom chat: {{detail}}'],
    send: ['发送失败：{{detail}}', '發送失敗：{{detail}}', 'Not sent: {{detail}}'],
    bridge: ['请在企业微信中打开本应用后再试', '請在企業微信中開啟本應用後再試', 'Open the app inside WeCom and try again'],
    register: [
      '企业微信未能确认本应用的身份，请稍后再试',
      '企業微信未能確認本應用的身份，請稍後再試',
      'WeCom could not confirm this app; try again shortly',
    ],
  },
} satisfies Entries;

export const reachLocalesReady = registerLocales(byLanguage({ reach }));

declare module '../../shared/i18n/translator' {
  interface StringSets {
    reach: InOneLanguage<{ reach: typeof reach }>;
  }
}
