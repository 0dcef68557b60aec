import { AUDIT_ACTIONS, type AuditChange, type AuditEntry } from '@broker/contract';
import { clientName } from '@broker/domain';
import { formatNumber } from '../../shared/format/number-format';
import { formatDateTime } from '../../shared/format/date-format';
import type { KeysUnder, TFunction } from '../../shared/i18n/translator';
import { motRuleName } from '../../shared/i18n/mot-rule-names';

/** A contact record's fields, as its edits and corrections name them (the server logs only those that changed). */
const CONTACT_FIELDS = ['channel', 'purpose', 'servedAt', 'note', 'outcome', 'nextStep', 'nextStepDate', 'suitability'] as const;

/** Fields shown for each action, in this order; others (ids the user cannot act on) are left out. */
const SHOWN_FIELDS: Record<string, readonly KeysUnder<'audit.field'>[]> = {
  'customer.update': ['nameEn', 'phone', 'email', 'tags', 'remark'],
  'mot.handle': ['status'],
  'mot.setMinCashIO': ['minCashIO'],
  'mot.setFold': ['motFold'],
  'mot.snooze': ['dueDate', 'reason', 'note'],
  'mot.setPush': ['motPush'],
  'contact.add': ['channel', 'purpose', 'servedAt', 'nextStepDate'],
  'contact.edit': CONTACT_FIELDS,
  'contact.correct': [...CONTACT_FIELDS, 'correctionReason'],
  'contact.export': ['records'],
};

const isKnownAction = (action: string): action is (typeof AUDIT_ACTIONS)[number] => (AUDIT_ACTIONS as readonly string[]).includes(action);

/** The headline: what was done, to whom, in plain words. */
export function describeAuditEntry(entry: AuditEntry, t: TFunction): string {
  const customer = (entry.customer && clientName(entry.customer)) || t('audit.unknownCustomer');
  if (!isKnownAction(entry.action)) return entry.action;
  return t(`audit.action.${entry.action}`, {
    customer,
    contact: entry.entityId,
    rule: entry.eventRule ? motRuleName(entry.eventRule, t) : '',
  });
}

function formatValue(field: string, value: unknown, t: TFunction): string {
  if (value === null || value === undefined || value === '') return t('audit.value.empty');
  if (Array.isArray(value)) return value.length === 0 ? t('audit.value.empty') : value.join('、');
  if (typeof value === 'boolean') return t(value ? 'audit.value.yes' : 'audit.value.no');
  if (field === 'minCashIO' && typeof value === 'number') return `HKD ${formatNumber(value, 0)}`;
  if (field === 'servedAt' && typeof value === 'number') return formatDateTime(value);
  if ((field === 'status' || field === 'reason') && typeof value === 'string') return t(`audit.value.${value}`, { defaultValue: value });
  if ((field === 'channel' || field === 'purpose') && typeof value === 'string')
    return t(`contact.${field}.${value}`, { defaultValue: value });
  // Anything else (a value this app does not know the shape of) as JSON, not "[object Object]".
  return typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value);
}

/** One line per changed field: `手机 +852 9123 **** → +852 6789 ****`. Values arrive masked from the server. */
export function describeAuditChanges(entry: AuditEntry, t: TFunction): { field: string; label: string; from: string; to: string }[] {
  const shown = SHOWN_FIELDS[entry.action];
  if (!shown) return [];
  const byField = new Map<string, AuditChange>(entry.changes.map((change) => [change.field, change]));
  return shown.flatMap((field) => {
    const change = byField.get(field);
    if (!change) return [];
    return [
      { field, label: t(`audit.field.${field}`), from: formatValue(field, change.before, t), to: formatValue(field, change.after, t) },
    ];
  });
}
