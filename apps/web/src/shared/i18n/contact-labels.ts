import type { ContactChannel, ContactPurpose } from '@broker/contract';
import { byLanguage, type Entry } from './by-language';
import { registerLocales } from './i18n';

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
} satisfies { [Group in keyof ContactLabels]: Record<keyof ContactLabels[Group], Entry> };

export const CONTACT_LABELS = byLanguage({ contact: LABELS });

/** Adds the labels to i18n (all three languages: they are few); registering again is a no-op. */
export const registerContactLabels = () => registerLocales(CONTACT_LABELS);

declare module './translator' {
  interface StringSets {
    contactLabels: { contact: ContactLabels };
  }
}
