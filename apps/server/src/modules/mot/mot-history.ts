import { sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { outcomeCodesMatching, paged, type searchServiceHistory as searchServiceHistoryEndpoint } from '@broker/contract';
import type { Database } from '../../db/client';
import { motEvents } from '../../db/schema';
import {
  containsPattern,
  hkDays,
  valueList,
  renderedOnce,
  rowsQuery,
  selectQuery,
  selectRowSets,
  tableAlias,
  tableAs,
} from '../../db/sql-rows';
import { ApiError } from '../../http/api-error';
import type { Caller } from '../../http/caller';
import { c, customerSummaryQuery, e, eventColumns, l, r, recordColumns, recordsOfEvents } from './mot.repository';
import { toCustomer, toEvent, toRecord } from './mot.service';

/** `from` for `recordColumns`: latest versions with their customer and first linked event. */
const recordsJoined = renderedOnce(sql`${tableAs(r)} join ${tableAs(c)} on ${c.id} = ${r.customerId}
  left join lateral (select ${l.motEventId} from ${tableAs(l)} where ${l.recordId} = ${r.threadId} order by ${l.motEventId} limit 1) first_event on true
  left join ${tableAs(e)} on ${e.id} = first_event.mot_event_id`);

/** Latest versions, newest first. */
export async function searchServiceHistory(db: Database, caller: Caller, input: z.output<typeof searchServiceHistoryEndpoint.request>) {
  const conditions: SQL[] = [sql`${r.corpId} = ${caller.corp.id}`, sql`${c.staffId} = ${caller.staffId}`, sql`${r.supersededBy} is null`];
  if (input.keyword) {
    const pattern = containsPattern(input.keyword);
    // A chip's outcome is stored as its code: the words the manager sees find it too.
    const outcomeCodes = outcomeCodesMatching(input.keyword);
    const byCode = outcomeCodes.length > 0 ? sql` or ${r.outcome} in (${valueList(outcomeCodes)})` : sql``;
    conditions.push(
      sql`(${r.note} ilike ${pattern} or ${r.outcome} ilike ${pattern}${byCode} or ${c.nameCn} ilike ${pattern} or ${c.nameEn} ilike ${pattern})`,
    );
  }
  if (input.rule) {
    const linked = tableAlias(motEvents, 'le');
    conditions.push(
      sql`exists (select from ${tableAs(l)} join ${tableAs(linked)} on ${linked.id} = ${l.motEventId} where ${l.recordId} = ${r.threadId} and ${linked.rule} = ${input.rule})`,
    );
  }
  if (input.channel) conditions.push(sql`${r.channel} = ${input.channel}`);
  conditions.push(...hkDays(r.servedAt, input));
  const from = sql`from ${recordsJoined} where ${sql.join(conditions, sql` and `)}`;
  const { rows, total } = await selectRowSets(
    db,
    {
      rows: selectQuery(
        recordColumns,
        sql`${from} order by ${r.servedAt} desc, ${r.id} desc limit ${input.pageSize} offset ${(input.pageNum - 1) * input.pageSize}`,
      ),
      total: rowsQuery<{ total: number }>(sql`select count(*)::int as total ${from}`),
    },
    // One generic plan per filter shape: led by the manager's clients either way (no index serves the keyword's
    // OR), and planning per call cost more than running it (ADR 0009).
    { prepare: true },
  );
  return paged(rows.map(toRecord), total[0]?.total ?? 0, input);
}

/** Newest due first; the customer (for 403 vs 404) and the page in one prepared statement. */
export async function getClientHistory(db: Database, caller: Caller, input: { customerId: number; pageNum: number; pageSize: number }) {
  const { customerId } = input;
  const found = await selectRowSets(
    db,
    {
      customer: customerSummaryQuery(caller.corp.id, customerId),
      rows: selectQuery(
        eventColumns,
        sql`from ${tableAs(e)} where ${e.customerId} = ${customerId}
             order by ${e.dueDate} desc, ${e.id} desc limit ${input.pageSize} offset ${(input.pageNum - 1) * input.pageSize}`,
      ),
      total: rowsQuery<{ total: number }>(
        sql`select count(*)::int as total from ${motEvents} where ${motEvents.customerId} = ${customerId}`,
      ),
    },
    { prepare: true },
  );
  const [customer] = found.customer;
  if (!customer) throw ApiError.notFound(`customerId: no customer ${customerId}`);
  if (customer.staffId !== caller.staffId) throw ApiError.forbidden(`customerId: customer ${customerId} is not assigned to you`);
  const records = await recordsOfEvents(
    db,
    found.rows.map((row) => row.eventId),
  );
  const list = found.rows.map((row) =>
    toEvent(
      row,
      records.find((record) => record.eventId === row.eventId),
    ),
  );
  return { ...paged(list, found.total[0]?.total ?? 0, input), customer: toCustomer(customer) };
}
