import { byLanguage, type Entry } from '../../shared/i18n/by-language';
import type { Language } from '../../shared/i18n/i18n';
import type { ChatMessage } from '../../shared/wecom/wecom-sdk';

/** The occasions a client manager greets or reminds a client for (ADR 0039): one text and one card each. */
export const MESSAGE_TEMPLATES = ['birthday', 'anniversary', 'largeDeposit', 'documentExpiry'] as const;
export type MessageTemplate = (typeof MESSAGE_TEMPLATES)[number];
export type MessageKind = 'text' | 'card';

/** `{{name}}`: how every message addresses the client. */
const GREETING = byLanguage({ greeting: ['{{name}}，您好！', '{{name}}，您好！', 'Dear {{name}},'] });

/**
 * What the client reads, in the language chosen for them: it leaves the app, so its words live here, not in the locale files. The
 * card's title, and its summary: also the text message's body after the greeting.
 */
const WORDING = byLanguage({
  birthday: {
    title: ['生日快乐', '生日快樂', 'Happy birthday'],
    body: [
      '祝您生日快乐，身体健康，万事顺意！感谢您一直以来的信任与支持。',
      '祝您生日快樂，身體健康，萬事順意！感謝您一直以來的信任與支持。',
      'Wishing you a very happy birthday and a healthy, prosperous year ahead. Thank you for your continued trust.',
    ],
  },
  anniversary: {
    title: ['开户周年快乐', '開戶週年快樂', 'Happy account anniversary'],
    body: [
      '今天是您在我司开户的周年纪念日，感谢您一路相伴。如需检视投资组合，欢迎随时联系我。',
      '今天是您在本公司開戶的週年紀念日，感謝您一路相伴。如需檢視投資組合，歡迎隨時聯絡我。',
      'Today marks another year since you opened your account with us. Thank you for being with us; let me know whenever you would like to review your portfolio.',
    ],
  },
  largeDeposit: {
    title: ['入金已到账', '存款已到賬', 'Your deposit has arrived'],
    body: [
      '您的入金已到账，感谢您的信任。如需了解投资机会或安排资金，欢迎随时联系我。',
      '您的存款已到賬，感謝您的信任。如需了解投資機會或安排資金，歡迎隨時聯絡我。',
      'Your deposit has been credited to your account. Thank you for your trust; I am happy to talk through opportunities whenever suits you.',
    ],
  },
  documentExpiry: {
    title: ['证件即将到期提醒', '證件即將到期提示', 'Your identity document expires soon'],
    body: [
      '您登记的身份证明文件即将到期，请尽快提供更新后的证件，以免影响账户交易。如有疑问请随时联系我。',
      '您登記的身份證明文件即將到期，請盡快提供更新後的證件，以免影響戶口交易。如有疑問請隨時聯絡我。',
      'The identity document on your account expires soon. Please send us the renewed document so your trading is not interrupted. Do reach out with any questions.',
    ],
  },
} satisfies Record<MessageTemplate, Record<'title' | 'body', Entry>>);

/** The client as a message addresses them: the Chinese name in Chinese, the English one in English (each the fallback of the other). */
export function addressedName(client: { nameCn: string; nameEn: string }, language: Language): string {
  const preferred = language === 'en' ? client.nameEn : client.nameCn;
  const other = language === 'en' ? client.nameCn : client.nameEn;
  return (preferred.trim() || other.trim()).slice(0, 80);
}

/** Where a card leads and its cover: the firm's public page for clients, set per build (ADR 0039). */
export interface CardTarget {
  link: string;
  imgUrl: string;
}

/** The message of a template for one client, ready for sendChatMessage. */
export function composeMessage(
  template: MessageTemplate,
  kind: MessageKind,
  language: Language,
  client: { nameCn: string; nameEn: string },
  card: CardTarget,
): ChatMessage {
  const wording = WORDING[language][template];
  const greeting = GREETING[language].greeting.replace('{{name}}', addressedName(client, language));
  const text = `${greeting}${language === 'en' ? ' ' : ''}${wording.body}`;
  if (kind === 'text') return { msgtype: 'text', text: { content: text } };
  return { msgtype: 'news', news: { link: card.link, title: wording.title, desc: text, imgUrl: card.imgUrl } };
}

/** The card target of this build: VITE_CLIENT_CARD_URL / VITE_CLIENT_CARD_IMAGE_URL, else the app's own origin. */
export function cardTarget(origin: string = window.location.origin): CardTarget {
  const env = import.meta.env as Record<string, string | undefined>;
  const web = (url: string | undefined, otherwise: string) => (url && /^https?:\/\//.test(url) ? url : otherwise);
  return { link: web(env.VITE_CLIENT_CARD_URL, `${origin}/`), imgUrl: web(env.VITE_CLIENT_CARD_IMAGE_URL, '') };
}
