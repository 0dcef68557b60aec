import { afterAll, describe, expect, test } from 'vitest';
import type { AuditEntry } from '@broker/contract';
import { i18n } from '../../shared/i18n/i18n';
import { describeAuditChanges, describeAuditEntry } from './audit-words';
import './audit-locales';

const { t } = i18n;
const customer = { customerId: 7, nameCn: '陈大文', nameEn: 'CHAN Tai Man', customerNo: 'C0000007' };
const entry = (overrides: Partial<AuditEntry>): AuditEntry => ({
  id: 1,
  at: Date.UTC(2026, 10, 21, 1, 30),
  action: 'customer.update',
  entity: 'customer',
  entityId: '7',
  customer,
  eventRule: null,
  changes: [],
  ...overrides,
});

describe('audit entries in plain words', () => {
  afterAll(async () => {
    await i18n.changeLanguage('zh-CN');
  });

  test('each action reads as a sentence, in each language', async () => {
    const edit = entry({ changes: [{ field: 'phone', before: '+852 9123 ****', after: '+852 6789 ****' }] });
    const bind = entry({ action: 'kyc.bind', entity: 'kyc_binding', entityId: 'wmEmu0001HoKwokLeung' });
    const handle = entry({ action: 'mot.handle', entity: 'mot_event', eventRule: 'id_expiry' });
    await i18n.changeLanguage('zh-CN');
    expect(describeAuditEntry(edit, t)).toBe('编辑了 陈大文 的资料');
    expect(describeAuditEntry(bind, t)).toBe('将企业微信联系人 wmEmu0001HoKwokLeung 绑定到 陈大文');
    expect(describeAuditEntry(handle, t)).toBe('处理了 陈大文 的事件「证件到期」');
    expect(describeAuditChanges(edit, t)).toEqual([{ field: 'phone', label: '手机', from: '+852 9123 ****', to: '+852 6789 ****' }]);
    await i18n.changeLanguage('zh-HK');
    expect(describeAuditEntry(handle, t)).toBe('處理了 陈大文 的事件「證件到期」');
    await i18n.changeLanguage('en');
    expect(describeAuditEntry(edit, t)).toBe("Edited 陈大文's profile");
    expect(describeAuditEntry(entry({ action: 'kyc.unbind', entityId: 'wmX' }), t)).toBe('Unbound WeCom contact wmX from 陈大文');
  });

  test('values: empty, lists, switches and money read naturally; ids are left out', async () => {
    await i18n.changeLanguage('en');
    const edit = entry({
      changes: [
        { field: 'remark', before: null, after: 'call after 5pm' },
        { field: 'tags', before: ['VIP'], after: ['VIP', 'HNW'] },
      ],
    });
    expect(describeAuditChanges(edit, t).map((change) => `${change.label}: ${change.from} → ${change.to}`)).toEqual([
      'Tags: VIP → VIP、HNW',
      'Remark: (empty) → call after 5pm',
    ]);
    const threshold = entry({
      action: 'mot.setMinCashIO',
      customer: null,
      changes: [{ field: 'minCashIO', before: 100000, after: 150000 }],
    });
    expect(describeAuditChanges(threshold, t)).toMatchObject([{ from: 'HKD 100,000', to: 'HKD 150,000' }]);
    const fold = entry({ action: 'mot.setFold', customer: null, changes: [{ field: 'motFold', before: false, after: true }] });
    expect(describeAuditChanges(fold, t)).toMatchObject([{ from: 'off', to: 'on' }]);
    const handled = entry({
      action: 'mot.handle',
      changes: [
        { field: 'status', before: 'new', after: 'handled' },
        { field: 'serviceRecordId', before: null, after: 12 },
      ],
    });
    expect(describeAuditChanges(handled, t)).toEqual([{ field: 'status', label: 'Status', from: 'new', to: 'handled' }]);
  });

  test('the contact log: logged, edited, corrected and exported, in each language, with the fields that changed', async () => {
    const correction = entry({
      action: 'contact.correct',
      entity: 'contact_record',
      entityId: '31',
      changes: [
        { field: 'purpose', before: 'service', after: 'recommendation' },
        { field: 'servedAt', before: Date.UTC(2026, 10, 20, 2, 5), after: Date.UTC(2026, 10, 20, 3, 5) },
        { field: 'correctionReason', before: null, after: 'Recommended a fund' },
        { field: 'recordId', before: 30, after: 31 },
        { field: 'customerId', before: null, after: 7 },
      ],
    });
    await i18n.changeLanguage('zh-CN');
    expect(describeAuditEntry(entry({ action: 'contact.add', entity: 'contact_record' }), t)).toBe('记录了与 陈大文 的联系');
    expect(describeAuditEntry(correction, t)).toBe('更正了与 陈大文 的联系记录（保留原版本）');
    expect(describeAuditChanges(correction, t).map((change) => `${change.label}: ${change.from} → ${change.to}`)).toEqual([
      '目的: 日常服务 → 产品推荐',
      '联系时间: 2026-11-20 10:05 → 2026-11-20 11:05',
      '更正原因: （空） → Recommended a fund',
    ]);
    await i18n.changeLanguage('zh-HK');
    expect(describeAuditEntry(entry({ action: 'contact.export', entity: 'contact_record' }), t)).toBe('匯出了 陈大文 的聯絡記錄');
    await i18n.changeLanguage('en');
    expect(describeAuditEntry(entry({ action: 'contact.edit', entity: 'contact_record' }), t)).toBe(
      'Edited a contact record of 陈大文 (before it locked)',
    );
    expect(describeAuditChanges(correction, t)[0]).toMatchObject({ label: 'Purpose', from: 'Servicing', to: 'Recommendation' });
  });

  test('a phone shown or dialled names the client and the number, masked (ADR 0039)', async () => {
    const shown = entry({ action: 'customer.revealPhone', changes: [{ field: 'phone', before: null, after: '+852 9123 ****' }] });
    const called = entry({ action: 'customer.callPhone', changes: [{ field: 'phone', before: null, after: '+852 9123 ****' }] });
    await i18n.changeLanguage('zh-CN');
    expect(describeAuditEntry(shown, t)).toBe('查看了 陈大文 的完整电话号码');
    expect(describeAuditEntry(called, t)).toBe('拨打了 陈大文 的电话');
    // The headline says it all: no "before → after" for a number that did not change.
    expect(describeAuditChanges(called, t)).toEqual([]);
    await i18n.changeLanguage('zh-HK');
    expect(describeAuditEntry(called, t)).toBe('撥打了 陈大文 的電話');
    await i18n.changeLanguage('en');
    expect(describeAuditEntry(shown, t)).toBe("Viewed 陈大文's full phone number");
    expect(describeAuditEntry(called, t)).toBe('Called 陈大文');
  });
});
