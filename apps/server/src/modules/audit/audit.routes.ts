import { contract, type AuditChange, type AuditEntry } from '@broker/contract';
import { maskIdNumber, maskPhone } from '@broker/domain';
import { scopeOf } from '../../http/caller';
import { implementArea } from '../../http/endpoint-route';
import { createAuditRepository, type AuditRow } from './audit.repository';

/** Never shown in full: phone numbers (and ID documents, should one ever be audited). */
const isPhoneField = (field: string) => /phone|mobile/i.test(field);
const isIdDocumentField = (field: string) => /^idDoc/i.test(field) && !/masked|type|expiry/i.test(field);

function maskAuditValue(field: string, value: unknown): unknown {
  if (typeof value !== 'string') return value ?? null;
  if (isPhoneField(field)) return maskPhone(value);
  if (isIdDocumentField(field)) return maskIdNumber(value);
  return value;
}

/** One change per field named in before or after (the trail's and the client timeline's profile edits). */
export function auditChanges(row: Pick<AuditRow, 'before' | 'after'>): AuditChange[] {
  const before = row.before ?? {};
  const after = row.after ?? {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields.map((field) => ({ field, before: maskAuditValue(field, before[field]), after: maskAuditValue(field, after[field]) }));
}

const toEntry = (row: AuditRow): AuditEntry => ({
  id: row.id,
  at: row.at,
  action: row.action,
  entity: row.entity,
  entityId: row.entityId,
  customer:
    row.customerId === null
      ? null
      : { customerId: row.customerId, nameCn: row.nameCn ?? '', nameEn: row.nameEn ?? '', customerNo: row.customerNo ?? '' },
  eventRule: row.eventRule,
  changes: auditChanges(row),
});

/** Nobody sees another's. */
export const auditRoutes = implementArea(contract.audit, (app) => {
  const repository = createAuditRepository(app.database.db);
  return {
    getMyAuditTrail: async ({ input, caller }) => {
      const rows = await repository.mine(scopeOf(caller), input);
      const page = rows.slice(0, input.limit);
      return { list: page.map(toEntry), nextCursor: rows.length > input.limit ? page.at(-1)!.id : null };
    },
  };
});
