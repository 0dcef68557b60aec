import { MAX_SNOOZE_DAYS, MOT_RULES, paged, type MotRankedRow, type MotRule, type SnoozeReason } from '@broker/contract';
import { addDays, hongKongDay, maskPhone } from '@broker/domain';
import { ApiError } from '../../http/api-error';
import { scopeOf, type Caller } from '../../http/caller';
import type { Database } from '../../db/client';
import { toRank, type MotRankRepository, type RankedSqlRow } from './mot-rank';
import { rankWeightsOf } from '../../mot-rank-config';
import { snoozesOf, writeSnooze } from './mot-snooze';
import { ownEvent } from './mot.service';

const toRankedRow = (row: RankedSqlRow, position: number): MotRankedRow => ({
  customerId: row.customerId,
  customerNo: row.customerNo,
  nameCn: row.nameCn,
  nameEn: row.nameEn,
  phone: maskPhone(row.phone),
  position,
  event: {
    eventId: row.eventId,
    // The contract's enums describe these values; the response schema re-checks them.
    rule: row.rule as MotRule,
    status: row.status as MotRankedRow['event']['status'],
    dueDate: row.dueDate,
    facts: row.facts,
    snoozed: row.snoozed,
  },
  rank: toRank(row),
});

export async function getRankedToday(
  rank: MotRankRepository,
  caller: Caller,
  input: { rule?: MotRule | undefined; pageNum: number; pageSize: number },
) {
  const today = hongKongDay();
  const { rows, byRule, handled } = await rank.rankedPage(scopeOf(caller), rankWeightsOf(caller.corp.motRank), {
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
    ...paged(
      rows.map((row, index) => toRankedRow(row, first + index + 1)),
      total,
      input,
    ),
    progress: { date: today, handled, total: handled + pendingToday },
    byRule: counts,
  };
}

export async function getEventRank(db: Database, ranks: MotRankRepository, caller: Caller, eventId: number) {
  await ownEvent(db, caller, eventId);
  const [rank, snoozes] = await Promise.all([
    ranks.eventRank(caller.corp.id, eventId, rankWeightsOf(caller.corp.motRank), hongKongDay()),
    snoozesOf(db, eventId),
  ]);
  return { rank, snoozes };
}

/** After today (Hong Kong), at most MAX_SNOOZE_DAYS ahead; only the client's manager, and not once handled (ADR 0041). */
export async function snoozeEvent(
  db: Database,
  caller: Caller,
  input: { eventId: number; until: string; reason: SnoozeReason; note?: string | undefined },
) {
  const today = hongKongDay();
  if (input.until <= today) throw ApiError.validation('until', `must be a day after today (${today})`);
  const latest = addDays(today, MAX_SNOOZE_DAYS);
  if (input.until > latest) throw ApiError.validation('until', `must be at most ${MAX_SNOOZE_DAYS} days ahead (${latest})`);
  const event = await ownEvent(db, caller, input.eventId);
  if (event.status === 'handled') throw ApiError.conflict(`eventId: event ${input.eventId} has already been handled`);
  const snooze = await writeSnooze(db, scopeOf(caller), {
    eventId: input.eventId,
    until: input.until,
    reason: input.reason,
    note: input.note || null,
  });
  return { eventId: input.eventId, dueDate: input.until, snooze };
}
