import {
  ErrorCode,
  MOT_RULES,
  type ContactPurpose,
  type MotCustomerSummary,
  type MotEvent,
  type MotRule,
  type MotTodoRow,
  type ServiceChannel,
  type ServiceRecord,
} from '@broker/contract';
import { addDays, dayNumber, hongKongDay, maskPhone } from '@broker/domain';
import { ApiError } from '../../http/api-error';
import { scopeOf, type Caller } from '../../http/caller';
import type { DatabaseHandle } from '../../db/client';
import { addContactRecord } from '../contact';
import { runMotRules } from './mot-engine';
import { CASH_THRESHOLD_RULES } from './mot-rules';
import type { CustomerSummaryRow, EventRow, MotRepository, RecordRow, TodoRow } from './mot.repository';

/** The date strip's default window around today. */
const DEFAULT_RANGE_DAYS = 30;
/** Longest date-strip window one call may ask for. */
const MAX_RANGE_DAYS = 366;

const paged = <T>(list: T[], total: number, page: { pageNum: number; pageSize: number }) => ({
  list,
  total,
  pageNum: page.pageNum,
  pageSize: page.pageSize,
  hasMore: page.pageNum * page.pageSize < total,
});

// Rows come from SQL whose values the contract's enums describe; the response schema re-checks them on the way out.
const toRecord = (row: RecordRow): ServiceRecord => ({
  ...row,
  rule: row.rule as MotRule | null,
  channel: row.channel as ServiceRecord['channel'],
});
/** What a contact that handles an event of this rule was for (migration 0023 gave existing records the same). */
const PURPOSE_OF_RULE: Partial<Record<MotRule, ContactPurpose>> = {
  birthday: 'care',
  anniversary: 'care',
  id_expiry: 'document',
  risk_expiry: 'document',
  follow_up: 'follow_up',
};
const purposeOfRule = (rule: string): ContactPurpose => PURPOSE_OF_RULE[rule as MotRule] ?? 'service';

const toEvent = (row: EventRow, record: RecordRow | undefined): MotEvent => ({
  eventId: row.eventId,
  rule: row.rule as MotRule,
  status: row.status as MotEvent['status'],
  dueDate: row.dueDate,
  customerId: row.customerId,
  facts: row.facts,
  createdAt: row.createdAt,
  seenAt: row.seenAt,
  handledAt: row.handledAt,
  snoozed: row.snoozed,
  serviceRecord: record ? toRecord(record) : null,
});
const toCustomer = ({ staffId: _staffId, ...row }: CustomerSummaryRow): MotCustomerSummary => ({ ...row, phone: maskPhone(row.phone) });
const toTodoRow = (row: TodoRow): MotTodoRow => ({
  ...row,
  phone: maskPhone(row.phone),
  events: row.events.map((event) => ({ ...event, rule: event.rule as MotRule, status: event.status as MotEvent['status'] })),
});

export function createMotService(deps: { repository: MotRepository; database: DatabaseHandle; contactRecordLockHours: number }) {
  const { repository } = deps;

  function requireOwnCustomer(caller: Caller, customerId: number, customer: CustomerSummaryRow | undefined): CustomerSummaryRow {
    if (!customer) throw ApiError.notFound(`customerId: no customer ${customerId}`);
    if (customer.staffId !== caller.staffId) throw ApiError.forbidden(`customerId: customer ${customerId} is not assigned to you`);
    return customer;
  }

  async function ownEvent(caller: Caller, eventId: number) {
    const event = await repository.event(caller.corp.id, eventId);
    if (!event) throw ApiError.notFound(`eventId: no event ${eventId}`);
    if (event.staffId !== caller.staffId)
      throw ApiError.forbidden(`eventId: event ${eventId} belongs to a customer who is not assigned to you`);
    return event;
  }

  async function settings(caller: Caller) {
    const row = await repository.staffSettings(caller.staffId);
    if (!row) throw ApiError.notFound('no such staff member');
    return row;
  }

  return {
    async dates(caller: Caller, input: { dateFrom?: string | undefined; dateTo?: string | undefined }) {
      const today = hongKongDay();
      const dateFrom =
        input.dateFrom ?? (input.dateTo ? addDays(input.dateTo, -2 * DEFAULT_RANGE_DAYS) : addDays(today, -DEFAULT_RANGE_DAYS));
      const dateTo = input.dateTo ?? addDays(dateFrom, 2 * DEFAULT_RANGE_DAYS);
      if (dayNumber(dateTo) - dayNumber(dateFrom) > MAX_RANGE_DAYS) {
        throw ApiError.validation('dateTo', `must be at most ${MAX_RANGE_DAYS} days after dateFrom`);
      }
      return repository.pendingDates(scopeOf(caller), { dateFrom, dateTo });
    },

    async todoClients(caller: Caller, input: { date?: string | undefined; rule?: MotRule | undefined; pageNum: number; pageSize: number }) {
      const { motFold } = await settings(caller);
      const { rows, total } = await repository.todoRows(scopeOf(caller), { ...input, date: input.date ?? hongKongDay(), fold: motFold });
      return { ...paged(rows.map(toTodoRow), total, input), fold: motFold };
    },

    async seen(caller: Caller, eventIds: number[]) {
      const unique = [...new Set(eventIds)];
      const owners = await repository.eventOwners(caller.corp.id, unique);
      const missing = unique.filter((id) => !owners.some((owner) => owner.eventId === id));
      if (missing.length > 0) throw ApiError.notFound(`eventIds: no event ${missing.join(', ')}`);
      const foreign = owners.filter((owner) => owner.staffId !== caller.staffId);
      if (foreign.length > 0)
        throw ApiError.forbidden(
          `eventIds: event ${foreign.map((owner) => owner.eventId).join(', ')} belongs to a customer who is not assigned to you`,
        );
      return { updated: await repository.markSeen(scopeOf(caller), unique) };
    },

    /**
     * Handling an event writes a contact record linked to it, through the contact log's one write
     * (ADR 0038): the same checks, the same audit entries, the same retention. Of two concurrent
     * handles the second finds the event handled under its row lock: 090409, never a second record.
     */
    async handle(
      caller: Caller,
      input: { eventId: number; channel: ServiceChannel; note: string; outcome?: string | null | undefined; servedAt?: number | undefined },
    ): Promise<ServiceRecord> {
      const event = await ownEvent(caller, input.eventId);
      if (event.status === 'handled') throw ApiError.conflict(`eventId: event ${input.eventId} has already been handled`);
      const record = await addContactRecord(
        deps.database.db,
        caller,
        {
          customerId: event.customerId,
          channel: input.channel,
          purpose: purposeOfRule(event.rule),
          note: input.note,
          outcome: input.outcome,
          servedAt: input.servedAt,
          eventIds: [input.eventId],
        },
        deps.contactRecordLockHours,
      ).catch((error: unknown) => {
        // This call names one event, as `eventId`: so does its conflict.
        if (error instanceof ApiError && error.code === ErrorCode.CONFLICT)
          throw ApiError.conflict(`eventId: event ${input.eventId} has already been handled`);
        throw error;
      });
      return {
        recordId: record.recordId,
        customerId: record.customerId,
        customerName: record.customerName,
        eventId: input.eventId,
        rule: event.rule as MotRule,
        channel: record.channel,
        note: record.note,
        outcome: record.outcome,
        servedAt: record.servedAt,
      };
    },

    async taskCount(caller: Caller, date: string | undefined) {
      const rows = await repository.pendingCountsByRule(scopeOf(caller), date);
      const byRule = MOT_RULES.map((rule) => {
        const row = rows.find((candidate) => candidate.rule === rule);
        return { rule, count: row?.count ?? 0, unseen: row?.unseen ?? 0 };
      });
      return { total: byRule.reduce((sum, row) => sum + row.count, 0), unseen: byRule.reduce((sum, row) => sum + row.unseen, 0), byRule };
    },

    async detail(caller: Caller, eventId: number) {
      const event = await ownEvent(caller, eventId);
      const [customer, records] = await Promise.all([
        repository.customer(caller.corp.id, event.customerId),
        repository.recordsOfEvents([eventId]),
      ]);
      return { event: toEvent(event, records[0]), customer: toCustomer(customer!) };
    },

    async minCashIo(caller: Caller) {
      return { minCashIO: (await settings(caller)).minCashIo };
    },

    /**
     * The new threshold applies at once: the to-do list hides large-money events below it, and
     * the rules that compare money with it re-run over the caller's customers so recent movements that now qualify fire.
     */
    async setMinCashIo(caller: Caller, minCashIO: number) {
      const rounded = Math.round(minCashIO * 100) / 100;
      await repository.updateStaffSetting(scopeOf(caller), { minCashIo: rounded });
      await runMotRules(deps.database, { staffId: caller.staffId, rules: CASH_THRESHOLD_RULES });
      return { minCashIO: rounded };
    },

    async setFold(caller: Caller, fold: boolean) {
      await repository.updateStaffSetting(scopeOf(caller), { motFold: fold });
      return fold;
    },

    async history(caller: Caller, input: Parameters<MotRepository['searchRecords']>[1]) {
      const { rows, total } = await repository.searchRecords(scopeOf(caller), input);
      return paged(rows.map(toRecord), total, input);
    },

    async clientHistory(caller: Caller, input: { customerId: number; pageNum: number; pageSize: number }) {
      const found = await repository.customerWithEvents(caller.corp.id, input.customerId, input);
      const customer = requireOwnCustomer(caller, input.customerId, found.customer);
      const { rows, total } = found;
      const records = await repository.recordsOfEvents(rows.map((row) => row.eventId));
      const list = rows.map((row) =>
        toEvent(
          row,
          records.find((record) => record.eventId === row.eventId),
        ),
      );
      return { ...paged(list, total, input), customer: toCustomer(customer) };
    },
  };
}
