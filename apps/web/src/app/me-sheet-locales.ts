import { byLanguage, type Entries, type InOneLanguage } from '../shared/i18n/by-language';
import { registerLocales } from '../shared/i18n/i18n';

/** The "me" sheet's strings, under `me.` (the top bar's `me.open` is the app's own): they load with the sheet. */
const me = {
  trendColours: ['涨跌颜色', '升跌顏色', 'Rise and fall colours'],
  trend: { redUp: ['红涨绿跌', '紅升綠跌', 'Red up, green down'], greenUp: ['绿涨红跌', '綠升紅跌', 'Green up, red down'] },
  signedInAs: ['当前登录', '目前登入', 'Signed in as'],
  userId: ['企业微信账号 {{userId}}', '企業微信帳戶 {{userId}}', 'WeCom ID {{userId}}'],
  language: ['语言', '語言', 'Language'],
  signOut: ['退出登录', '登出', 'Sign out'],
  signOutHint: ['仅退出本设备', '只登出本裝置', 'This device only'],
  signOutEverywhere: ['在所有设备上退出', '在所有裝置上登出', 'Sign out everywhere'],
  signOutEverywhereHint: [
    '手机、电脑上的登录都会立即结束',
    '手機、電腦上的登入都會立即結束',
    'Ends every sign-in on your phone and computer now',
  ],
  signingOut: ['正在退出…', '正在登出…', 'Signing out…'],
  confirmEverywhereTitle: ['在所有设备上退出？', '在所有裝置上登出？', 'Sign out everywhere?'],
  confirmEverywhereContent: [
    '你在手机和电脑上的所有登录都会立即结束，之后需要重新通过企业微信登录。',
    '你在手機和電腦上的所有登入都會立即結束，之後需要重新透過企業微信登入。',
    'Every sign-in on your phone and computer ends now. You will sign in through WeCom again.',
  ],
  confirmEverywhere: ['全部退出', '全部登出', 'Sign out everywhere'],
  close: ['关闭', '關閉', 'Close'],
  signOutFailed: ['退出失败，请检查网络后重试', '登出失敗，請檢查網絡後重試', 'Could not sign out. Check your connection and try again.'],
} satisfies Entries;

void registerLocales(byLanguage({ me }));

declare module '../shared/i18n/translator' {
  interface StringSets {
    meSheet: InOneLanguage<{ me: typeof me }>;
  }
}
