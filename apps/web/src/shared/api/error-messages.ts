import { ErrorCode } from './contract';
import { i18n } from '../i18n/i18n';

/**
 * The server's msgs are English. For codes a user can meet in normal use the toast says it in the
 * user's language instead; 090400 (validation) keeps the server's msg, which names the field and rule,
 * because forms validate inline before sending.
 */
const CODE_MESSAGES = {
  [ErrorCode.LOGIN_CODE_INVALID]: {
    'zh-CN': '企业微信授权已失效，请重新登录',
    'zh-HK': '企業微信授權已失效，請重新登入',
    en: 'The WeCom sign-in expired. Please sign in again.',
  },
  [ErrorCode.LOGIN_STATE_INVALID]: {
    'zh-CN': '这个登录链接不是在本设备上发起的，已忽略',
    'zh-HK': '這個登入連結不是在本裝置上發起的，已略過',
    en: 'This sign-in link was not started on this device and was ignored.',
  },
  [ErrorCode.FORBIDDEN]: { 'zh-CN': '无权查看该客户', 'zh-HK': '無權查看該客戶', en: 'You are not allowed to view this client.' },
  [ErrorCode.NOT_FOUND]: {
    'zh-CN': '客户不存在或已被移除',
    'zh-HK': '客戶不存在或已被移除',
    en: 'This client does not exist or was removed.',
  },
  [ErrorCode.CONFLICT]: {
    'zh-CN': '资料已被他人修改，请刷新后再保存',
    'zh-HK': '資料已被他人修改，請重新載入後再儲存',
    en: 'Someone else changed this profile. Reload before saving.',
  },
  [ErrorCode.RATE_LIMITED]: {
    'zh-CN': '操作太频繁，请稍后再试',
    'zh-HK': '操作太頻繁，請稍後再試',
    en: 'Too many requests. Please try again shortly.',
  },
  [ErrorCode.LOGIN_RATE_LIMITED]: {
    'zh-CN': '登录尝试过于频繁，请 {{seconds}} 秒后再试',
    'zh-HK': '登入嘗試過於頻繁，請 {{seconds}} 秒後再試',
    en: 'Too many sign-in attempts. Please try again in {{seconds}} s.',
  },
  [ErrorCode.KYC_SEARCH_RATE_LIMITED]: {
    'zh-CN': '搜索过于频繁，请 {{seconds}} 秒后再搜索',
    'zh-HK': '搜尋過於頻繁，請 {{seconds}} 秒後再搜尋',
    en: 'Too many searches. Please search again in {{seconds}} s.',
  },
  [ErrorCode.INTERNAL]: {
    'zh-CN': '服务暂时不可用，请稍后重试',
    'zh-HK': '服務暫時不可用，請稍後重試',
    en: 'The service is unavailable. Please try again later.',
  },
  [ErrorCode.UPSTREAM_WECOM]: {
    'zh-CN': '企业微信服务异常，请稍后重试',
    'zh-HK': '企業微信服務異常，請稍後重試',
    en: 'WeCom did not answer. Please try again later.',
  },
} as const satisfies Record<string, Record<'zh-CN' | 'zh-HK' | 'en', string>>;

type KnownCode = keyof typeof CODE_MESSAGES;

for (const language of ['zh-CN', 'zh-HK', 'en'] as const) {
  const messages = Object.fromEntries(Object.entries(CODE_MESSAGES).map(([code, text]) => [code, text[language]]));
  i18n.addResourceBundle(language, 'translation', { errors: { code: messages } }, true, true);
}

const isKnown = (code: string): code is KnownCode => code in CODE_MESSAGES;

/** Codes whose message says when to try again, from the response's Retry-After. */
const WAIT_CODES: readonly string[] = [ErrorCode.LOGIN_RATE_LIMITED, ErrorCode.KYC_SEARCH_RATE_LIMITED];

/**
 * The localized message for a known business code, else null (the caller keeps the server's msg).
 * A rate limit without a usable Retry-After falls back to the general "too many requests".
 */
export function localizedErrorMessage(code: string, context: { retryAfter?: string | null } = {}): string | null {
  if (WAIT_CODES.includes(code)) {
    const seconds = Number(context.retryAfter);
    if (!Number.isInteger(seconds) || seconds < 1) return i18n.t(`errors.code.${ErrorCode.RATE_LIMITED}`);
    return i18n.t(`errors.code.${code}`, { seconds });
  }
  return isKnown(code) ? i18n.t(`errors.code.${code}`) : null;
}
