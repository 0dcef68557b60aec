import type { ContactChannel, ContactPurpose } from '@broker/contract';
import { registerLocales, type Language } from './i18n';

/**
 * A contact's channel and purpose as the reader's language names them, `contact.channel.<channel>` and
 * `contact.purpose.<purpose>`: the one copy for the contact log, the client timeline, the MOT handle
 * sheet and history, and the audit trail, so a record reads the same wherever it shows. Here in shared/, not in
 * the contact feature: MOT's and the contact log's vocabularies each need the other's, and features reaching
 * into each other for them made an import cycle (import-cycles.test.ts).
 */
export interface ContactLabels {
  channel: Record<ContactChannel, string>;
  purpose: Record<ContactPurpose, string>;
}

export const CONTACT_LABELS: Record<Language, ContactLabels> = {
  'zh-CN': {
    channel: { phone: '电话', wecom: '企业微信', meeting: '面谈', email: '邮件', other: '其他' },
    purpose: {
      service: '日常服务',
      review: '账户检视',
      recommendation: '产品推荐',
      care: '关怀问候',
      document: '文件续期',
      follow_up: '跟进',
      complaint: '投诉',
      other: '其他',
    },
  },
  'zh-HK': {
    channel: { phone: '電話', wecom: '企業微信', meeting: '面談', email: '電郵', other: '其他' },
    purpose: {
      service: '日常服務',
      review: '賬戶檢視',
      recommendation: '產品推介',
      care: '關懷問候',
      document: '文件續期',
      follow_up: '跟進',
      complaint: '投訴',
      other: '其他',
    },
  },
  en: {
    channel: { phone: 'Phone', wecom: 'WeCom', meeting: 'Meeting', email: 'Email', other: 'Other' },
    purpose: {
      service: 'Servicing',
      review: 'Review',
      recommendation: 'Recommendation',
      care: 'Greetings',
      document: 'Documents',
      follow_up: 'Follow-up',
      complaint: 'Complaint',
      other: 'Other',
    },
  },
};

const LABEL_LOCALES = {
  'zh-CN': { contact: CONTACT_LABELS['zh-CN'] },
  'zh-HK': { contact: CONTACT_LABELS['zh-HK'] },
  en: { contact: CONTACT_LABELS.en },
};

/** Adds the labels to i18n (all three languages: they are few); registering again is a no-op. */
export const registerContactLabels = () => registerLocales(LABEL_LOCALES);

declare module './translator' {
  interface StringSets {
    contactLabels: { contact: ContactLabels };
  }
}
