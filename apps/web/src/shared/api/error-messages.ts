import { ErrorCode } from './contract';
import { byLanguage, type Entries } from '../i18n/by-language';
import { i18n, registerLocales } from '../i18n/i18n';

/**
 * The user's language for codes met in normal use. 090400 keeps the server's msg (it names the field; forms validate inline),
 * and so does 090409 (docs/spec.md §8): only the server can say what conflicted, and the screens that meet it explain it themselves.
 */
const CODE_MESSAGES = {
  [ErrorCode.LOGIN_CODE_INVALID]: [
    '企业微信授权已失效，请重新登录',
    '企業微信授權已失效，請重新登入',
    'The WeCom sign-in expired. Please sign in again.',
  ],
  [ErrorCode.LOGIN_STATE_INVALID]: [
    '这个登录链接不是在本设备上发起的，已忽略',
    '這個登入連結不是在本裝置上發起的，已略過',
    'This sign-in link was not started on this device and was ignored.',
  ],
  // Said in general: the code does not tell a client from an event or a record; the page that failed names it (LoadFailedState).
  [ErrorCode.FORBIDDEN]: ['无权查看该内容', '無權查看該內容', 'You are not allowed to view this.'],
  [ErrorCode.NOT_FOUND]: [
    '要查看的内容不存在或已被移除',
    '要查看的內容不存在或已被移除',
    'What you asked for does not exist or was removed.',
  ],
  [ErrorCode.RATE_LIMITED]: ['操作太频繁，请稍后再试', '操作太頻繁，請稍後再試', 'Too many requests. Please try again shortly.'],
  [ErrorCode.LOGIN_RATE_LIMITED]: [
    '登录尝试过于频繁，请 {{seconds}} 秒后再试',
    '登入嘗試過於頻繁，請 {{seconds}} 秒後再試',
    'Too many sign-in attempts. Please try again in {{seconds}} s.',
  ],
  [ErrorCode.KYC_SEARCH_RATE_LIMITED]: [
    '搜索过于频繁，请 {{seconds}} 秒后再搜索',
    '搜尋過於頻繁，請 {{seconds}} 秒後再搜尋',
    'Too many searches. Please search again in {{seconds}} s.',
  ],
  // ADR 0039: every reveal or dial of a phone is audited, and a staff member's reveals are rate-limited.
  [ErrorCode.PHONE_REVEAL_RATE_LIMITED]: [
    '查看电话号码过于频繁，请 {{seconds}} 秒后再试',
    '查看電話號碼過於頻繁，請 {{seconds}} 秒後再試',
    'Too many phone numbers shown. Please try again in {{seconds}} s.',
  ],
  // ADR 0015: a page of one WeCom app called another app's endpoint; a stale or altered page, not the user's doing.
  [ErrorCode.AGENT_MISMATCH]: [
    '此页面来自另一个企业微信应用，请从应用中重新打开（错误码 090701）',
    '此頁面來自另一個企業微信應用，請從應用中重新開啟（錯誤碼 090701）',
    'This page belongs to another WeCom app. Please open it again from the app (code 090701).',
  ],
  // ADR 0014: a slow mobile network can take longer than the server waits for a request.
  [ErrorCode.REQUEST_TIMEOUT]: [
    '网络太慢，请求未能及时送达，请重试',
    '網絡太慢，請求未能及時送達，請重試',
    'The network is too slow; the request did not arrive in time. Please try again.',
  ],
  [ErrorCode.INTERNAL]: ['服务暂时不可用，请稍后重试', '服務暫時不可用，請稍後重試', 'The service is unavailable. Please try again later.'],
  [ErrorCode.UPSTREAM_WECOM]: [
    '企业微信服务异常，请稍后重试',
    '企業微信服務異常，請稍後重試',
    'WeCom did not answer. Please try again later.',
  ],
  // ADR 0017: what went wrong with WeCom, and whom to ask; the code is quoted for the administrator.
  [ErrorCode.WECOM_IP_NOT_TRUSTED]: [
    '企业微信拒绝了本系统的服务器地址（可信IP），请联系企业微信管理员（错误码 092501）',
    '企業微信拒絕了本系統的伺服器地址（可信IP），請聯絡企業微信管理員（錯誤碼 092501）',
    'WeCom refused this system’s server address (trusted IPs). Please contact your WeCom administrator (code 092501).',
  ],
  [ErrorCode.WECOM_API_FORBIDDEN]: [
    '该企业微信应用未获授权使用此功能，请联系企业微信管理员（错误码 092502）',
    '該企業微信應用未獲授權使用此功能，請聯絡企業微信管理員（錯誤碼 092502）',
    'This WeCom app may not use this function. Please contact your WeCom administrator (code 092502).',
  ],
  [ErrorCode.WECOM_RATE_LIMITED]: [
    '企业微信请求过于频繁，请一分钟后再试',
    '企業微信請求過於頻繁，請一分鐘後再試',
    'WeCom is limiting requests. Please try again in a minute.',
  ],
  [ErrorCode.WECOM_REDIRECT_UNTRUSTED]: [
    '企业微信不认可本登录页面（可信域名），请联系企业微信管理员（错误码 092504）',
    '企業微信不認可本登入頁面（可信域名），請聯絡企業微信管理員（錯誤碼 092504）',
    'WeCom did not accept this sign-in page (trusted domain). Please contact your WeCom administrator (code 092504).',
  ],
  [ErrorCode.WECOM_BUSY]: ['企业微信繁忙，请稍后重试', '企業微信繁忙，請稍後重試', 'WeCom is busy. Please try again shortly.'],
  [ErrorCode.WECOM_CODE_MISSING]: [
    '企业微信授权未完成，请重新登录',
    '企業微信授權未完成，請重新登入',
    'The WeCom sign-in did not finish. Please sign in again.',
  ],
  [ErrorCode.WECOM_TOKEN_REJECTED]: [
    '企业微信暂时不接受本系统的凭证，请稍后重试；如持续出现请联系管理员（错误码 092507）',
    '企業微信暫時不接受本系統的憑證，請稍後重試；如持續出現請聯絡管理員（錯誤碼 092507）',
    'WeCom did not accept this system’s credentials. Try again shortly; if it persists, contact your administrator (code 092507).',
  ],
  [ErrorCode.WECOM_CREDENTIALS_INVALID]: [
    '本系统的企业微信应用设置有误，请联系管理员（错误码 092508）',
    '本系統的企業微信應用設定有誤，請聯絡管理員（錯誤碼 092508）',
    'This system’s WeCom app is set up wrongly. Please contact your administrator (code 092508).',
  ],
  [ErrorCode.WECOM_NOT_VISIBLE]: [
    '你不在该企业微信应用的可见范围内，请联系企业微信管理员添加（错误码 092509）',
    '你不在該企業微信應用的可見範圍內，請聯絡企業微信管理員加入（錯誤碼 092509）',
    'You are not in this WeCom app’s visible range. Ask your WeCom administrator to add you (code 092509).',
  ],
  [ErrorCode.WECOM_AGENT_MISMATCH]: [
    '本系统的企业微信应用编号与密钥不匹配，请联系管理员（错误码 092510）',
    '本系統的企業微信應用編號與密鑰不匹配，請聯絡管理員（錯誤碼 092510）',
    'This system’s WeCom app id and secret belong to different apps. Please contact your administrator (code 092510).',
  ],
  [ErrorCode.WECOM_NOT_EXTERNAL_CONTACT]: [
    '企业微信中找不到与此联系人的客户关系',
    '企業微信中找不到與此聯絡人的客戶關係',
    'WeCom has no customer relationship with this contact.',
  ],
  [ErrorCode.WECOM_EXTERNAL_USERID_INVALID]: [
    '这不是有效的企业微信联系人',
    '這不是有效的企業微信聯絡人',
    'This is not a valid WeCom contact.',
  ],
} satisfies Entries;

type KnownCode = keyof typeof CODE_MESSAGES;

void registerLocales(byLanguage({ errors: { code: CODE_MESSAGES } }));

const isKnown = (code: string): code is KnownCode => code in CODE_MESSAGES;

/** Codes whose message says when to try again, from the response's Retry-After. */
const WAIT_CODES: readonly KnownCode[] = [
  ErrorCode.LOGIN_RATE_LIMITED,
  ErrorCode.KYC_SEARCH_RATE_LIMITED,
  ErrorCode.PHONE_REVEAL_RATE_LIMITED,
];

/** The localized message for a known code, else null (the server's msg stays); a rate limit without Retry-After is "too many requests". */
export function localizedErrorMessage(code: string, context: { retryAfter?: string | null } = {}): string | null {
  if (!isKnown(code)) return null;
  if (WAIT_CODES.includes(code)) {
    const seconds = Number(context.retryAfter);
    if (!Number.isInteger(seconds) || seconds < 1) return i18n.t(`errors.code.${ErrorCode.RATE_LIMITED}`);
    return i18n.t(`errors.code.${code}`, { seconds });
  }
  return i18n.t(`errors.code.${code}`);
}

declare module '../i18n/translator' {
  interface StringSets {
    errorCodes: { errors: { code: Record<KnownCode, string> } };
  }
}
