import { MAX_SNOOZE_DAYS, MOT_RULES, type MotRankedRow, type MotRule, type SnoozeReason } from '@broker/contract';
import { addDays, hongKongDay, maskPhone } from '@broker/domain';
import { ApiError } from '../../http/api-error';
import { scopeOf, type Caller } from '../../http/caller';
import type { MotRepository } from './mot.repository';
import { toRank, type MotRankRepository, type RankedSqlRow } from './mot-rank';
import { rankWeightsOf, type MotRankConfig } from '../../mot-rank-config';
import type { MotSnoozeRepository } from './mot-snooze';

/** The corp's ranking configuration, if the corps file gives one (`motRank`, corps.ts). */
const rankConfigOf = (caller: Caller): MotRankConfig | undefined => caller.corp.motRank;

const toRankedRow = (row: RankedSqlRow, position: number): MotRankedRow => ({
  customerId: row.customerId,
  customerNo: row.customerNo,
  nameCn: row.nameCn,
  nameEn: row.nameEn,
  phone: maskPhone(row.phone),
  position,
  event: {
    eventId: row.eventId,
    // Rows come from SQL whose values the contract's enums describe; the response schema re-checks them.
    rule: row.rule as MotRule,
    status: row.status as MotRankedRow['event']['status'],
    dueDate: row.dueDate,
    facts: row.facts,
    snoozed: row.snoozed,
  },
  rank: toRank(row),
});

/** The ranked day, an event's rank and snoozes, and snoozing (issue 24 parts 1 and 3, ADR 0041). */
export function createMotRankService(deps: { events: MotRepository; rank: MotRankRepository; snooze: MotSnoozeRepository }) {
  async function ownEvent(caller: Caller, eventId: number) {
    const event = await deps.events.event(caller.corp.id, eventId);
    if (!event) throw ApiError.notFound(`eventId: no event ${eventId}`);
    if (event.staffId !== caller.staffId)
      throw ApiError.forbidden(`eventId: event ${eventId} belongs to a customer who is not assigned to you`);
    return event;
  }

  return {
    async rankedToday(caller: Caller, input: { rule?: MotRule | undefined; pageNum: number; pageSize: number }) {
      const today = hongKongDay();
      const { rows, byRule, handled } = await deps.rank.rankedPage(scopeOf(caller), rankWeightsOf(rankConfigOf(caller)), {
        ...input,
        today,
      });
      const counts = MOT_RULES.map((rule) => ({ rule, count: byRule.find((row) => row.rule === rule)?.count ?? 0 })).filter(
        (row) => row.count > 0,
      );
      const pendingToday = counts.reduce((sum, row) => sum + row.count, 0);
      const total = input.rule ? (counts.find((row) => row.rule === input.rule)?.count ?? 0) : pendingToday;
      const first = (input.pageNum - 1) * input.pageSize;
      return {
        list: rows.map((row, index) => toRankedRow(row, first + index + 1)),
        total,
        pageNum: input.pageNum,
        pageSize: input.pageSize,
        hasMore: input.pageNum * input.pageSize < total,
        progress: { date: today, handled, total: handled + pendingToday },
        byRule: counts,
      };
    },

    async eventRank(caller: Caller, eventId: number) {
      await ownEvent(caller, eventId);
      const [rank, snoozes] = await Promise.all([
        deps.rank.eventRank(caller.corp.id, eventId, rankWeightsOf(rankConfigOf(caller)), hongKongDay()),
        deps.snooze.snoozesOf(eventId),
      ]);
      return { rank, snoozes };
    },

    /**
     * Put an event off: the day must be after today (Hong Kong) and at most MAX_SNOOZE_DAYS ahead; only the
     * manager the client is assigned to may, and not once it is handled.
     */
    async snooze(caller: Caller, input: { eventId: number; until: string; reason: SnoozeReason; note?: string | undefined }) {
      const today = hongKongDay();
      if (input.until <= today) throw ApiError.validation('until', `must be a day after today (${today})`);
      const latest = addDays(today, MAX_SNOOZE_DAYS);
      if (input.until > latest) throw ApiError.validation('until', `must be at most ${MAX_SNOOZE_DAYS} days ahead (${latest})`);
      const event = await ownEvent(caller, input.eventId);
      if (event.status === 'handled') throw ApiError.conflict(`eventId: event ${input.eventId} has already been handled`);
      const snooze = await deps.snooze.snooze(scopeOf(caller), {
        eventId: input.eventId,
        until: input.until,
        reason: input.reason,
        note: input.note || null,
      });
      return { eventId: input.eventId, dueDate: input.until, snooze };
    },
  };
}
