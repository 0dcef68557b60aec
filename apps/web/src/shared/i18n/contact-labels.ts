import type { ContactChannel, ContactPurpose } from '@broker/contract';
import { byLanguage, type Entry } from './by-language';
import { registerLocales } from './i18n';

/**
 * A contact's channel and purpose in the reader's language: one copy for the contact log, timeline, MOT and audit trail. In shared/
 * because MOT and the contact log each need the other's words, and reaching into each other made an import cycle.
 */
const LABELS = {
  channel: {
    phone: ['电话', '電話', 'Phone'],
    wecom: ['企业微信', '企業微信', 'WeCom'],
    meeting: ['面谈', '面談', 'Meeting'],
    email: ['邮件', '電郵', 'Email'],
    other: ['其他', '其他', 'Other'],
  },
  purpose: {
    service: ['日常服务', '日常服務', 'Servicing'],
    review: ['账户检视', '賬戶檢視', 'Review'],
    recommendation: ['产品推荐', '產品推介', 'Recommendation'],
    care: ['关怀问候', '關懷問候', 'Greetings'],
    document: ['文件续期', '文件續期', 'Documents'],
    follow_up: ['跟进', '跟進', 'Follow-up'],
    complaint: ['投诉', '投訴', 'Complaint'],
    other: ['其他', '其他', 'Other'],
  },
} satisfies { channel: Record<ContactChannel, Entry>; purpose: Record<ContactPurpose, Entry> };

export const CONTACT_LABELS = byLanguage({ contact: LABELS });

/** Adds the labels to i18n (all three languages: they are few); registering again is a no-op. */
export const registerContactLabels = () => registerLocales(CONTACT_LABELS);

declare module './translator' {
  interface StringSets {
    contactLabels: (typeof CONTACT_LABELS)['zh-CN'];
  }
}
