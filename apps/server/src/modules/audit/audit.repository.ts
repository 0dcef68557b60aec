import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { StaffScope } from '../../http/caller';
import { epochMs, float8, outerJoined, selection, selectQuery, selectRows, tableAlias, tableAs, type RowOf } from '../../db/sql-rows';
import { auditLog, customers, motEvents } from '../../db/schema';

const l = tableAlias(auditLog, 'l');
const cursor = tableAlias(auditLog, 'p');
const e = tableAlias(motEvents, 'e');
const c = tableAlias(customers, 'c');

const auditColumns = selection({
  id: float8(l.id),
  at: epochMs(l.at),
  action: l.action,
  entity: l.entity,
  entityId: l.entityId,
  before: sql<Record<string, unknown> | null>`${l.before}`,
  after: sql<Record<string, unknown> | null>`${l.after}`,
  customerId: sql<number | null>`${c.id}::float8`,
  nameCn: outerJoined(c.nameCn),
  nameEn: outerJoined(c.nameEn),
  customerNo: outerJoined(c.customerNo),
  eventRule: outerJoined(e.rule),
});
export type AuditRow = RowOf<typeof auditColumns>;

type NewAuditRow = typeof auditLog.$inferInsert;

/** An audit row of what the caller did (`staffId` null: the system). */
export const auditEntry = (
  scope: { corpId: number; staffId: number | null },
  action: string,
  entity: string,
  entityId: string,
  before: NewAuditRow['before'],
  after: NewAuditRow['after'],
): NewAuditRow => ({ corpId: scope.corpId, actorStaffId: scope.staffId, action, entity, entityId, before, after });

export function createAuditRepository(db: Database) {
  return {
    /**
     * Keyset-paged on (at, id) for the actor index; each entry joined to the customer it concerns (directly, through
     * the binding's or the event's customer, or the customerId a contact-log entry names).
     */
    async mine(scope: StaffScope, page: { cursor?: number | undefined; entity?: string | undefined; limit: number }) {
      const conditions: SQL[] = [sql`${l.actorStaffId} = ${scope.staffId}`, sql`${l.corpId} = ${scope.corpId}`];
      if (page.entity) conditions.push(sql`${l.entity} = ${page.entity}`);
      if (page.cursor !== undefined) {
        conditions.push(
          sql`(${l.at}, ${l.id}) < (select ${cursor.at}, ${cursor.id} from ${tableAs(cursor)} where ${cursor.id} = ${page.cursor})`,
        );
      }
      return selectRows(
        db,
        selectQuery(
          auditColumns,
          sql`from ${tableAs(l)}
              left join ${tableAs(e)} on ${l.entity} = 'mot_event' and ${e.id} = (case when ${l.entity} = 'mot_event' then ${l.entityId}::bigint end)
              left join ${tableAs(c)} on ${c.corpId} = ${l.corpId} and ${c.id} = (case
                   when ${l.entity} = 'customer' then ${l.entityId}::bigint
                   when ${l.entity} = 'kyc_binding' then coalesce((${l.after} ->> 'customerId')::bigint, (${l.before} ->> 'customerId')::bigint)
                   when ${l.entity} = 'mot_event' then ${e.customerId}
                   when ${l.entity} = 'contact_record' then (${l.after} ->> 'customerId')::bigint end)
             where ${sql.join(conditions, sql` and `)}
             order by ${l.at} desc, ${l.id} desc
             limit ${page.limit + 1}`,
        ),
      );
    },
  };
}
