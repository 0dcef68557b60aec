import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { selectRows } from '../../db/sql-rows';

export interface AuditRow {
  id: number;
  at: number;
  action: string;
  entity: string;
  entityId: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  customerId: number | null;
  nameCn: string | null;
  nameEn: string | null;
  customerNo: string | null;
  eventRule: string | null;
}

export function createAuditRepository(db: Database) {
  return {
    /**
     * One staff member's own entries, newest first, keyset-paged on (at, id) so the actor index
     * (actor_staff_id, at) serves it. Each entry is joined to the customer it concerns: directly for
     * a profile edit, through the binding's customerId for KYC, through the event for MOT.
     */
    async mine(
      scope: { corpId: number; staffId: number },
      page: { cursor?: number | undefined; entity?: string | undefined; limit: number },
    ) {
      const conditions: SQL[] = [sql`l.actor_staff_id = ${scope.staffId}`, sql`l.corp_id = ${scope.corpId}`];
      if (page.entity) conditions.push(sql`l.entity = ${page.entity}`);
      if (page.cursor !== undefined) {
        conditions.push(sql`(l.at, l.id) < (select p.at, p.id from audit_log p where p.id = ${page.cursor})`);
      }
      return selectRows<AuditRow>(
        db,
        sql`select l.id::float8 as id, floor(extract(epoch from l.at) * 1000)::float8 as at, l.action, l.entity, l.entity_id as "entityId",
                   l.before, l.after, c.id::float8 as "customerId", c.name_cn as "nameCn", c.name_en as "nameEn",
                   c.customer_no as "customerNo", e.rule as "eventRule"
              from audit_log l
              left join mot_event e on l.entity = 'mot_event' and e.id = (case when l.entity = 'mot_event' then l.entity_id::bigint end)
              left join customer c on c.corp_id = l.corp_id and c.id = (case
                   when l.entity = 'customer' then l.entity_id::bigint
                   when l.entity = 'kyc_binding' then coalesce((l.after ->> 'customerId')::bigint, (l.before ->> 'customerId')::bigint)
                   when l.entity = 'mot_event' then e.customer_id end)
             where ${sql.join(conditions, sql` and `)}
             order by l.at desc, l.id desc
             limit ${page.limit + 1}`,
      );
    },
  };
}
