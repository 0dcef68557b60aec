import { hostname } from 'node:os';
import { and, eq, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { hongKongDay } from '@broker/domain';
import type { DatabaseHandle } from '../../db/client';
import {
  asText,
  columnName,
  epochMs,
  float8,
  rowsQuery,
  selectQuery,
  selection,
  selectionWithValues,
  selectRows,
  tableAlias,
  tableAs,
  type RowOf,
} from '../../db/sql-rows';
import { motPushes, motPushEvents, staff } from '../../db/schema';
import type { WecomCorp, WecomSendResult } from '../../wecom/wecom-client';
import { STALE_TOKEN_ERRCODES, WecomApiError } from '../../wecom/wecom-errors';
import { rankWeightsOf, type MotRankConfig } from '../../mot-rank-config';
import { eventRanking } from '../mot';
import { buildTextcard, CARD_TOP_EVENTS, DUPLICATE_CHECK_INTERVAL_S } from './push-card';
import { nextSendableAt, type QuietHours } from './quiet-hours';

/** The WeCom client's sendMessage; tests may wrap it. */
export type SendMessage = (corp: WecomCorp, agentCode: 'mot', body: Record<string, unknown>) => Promise<WecomSendResult>;

/** Its code for the card's link and its ranked day's weights. */
export type PushCorp = WecomCorp & { code: string; motRank?: MotRankConfig | undefined };

export interface DispatchOptions {
  corps: readonly PushCorp[];
  send: SendMessage;
  appUrl: string;
  now?: () => number;
  quietHours?: QuietHours | null;
  /** WeCom allows 30 a minute; we want far fewer. */
  minIntervalMs?: number;
  /** Claimed per round and sent concurrently. */
  batchSize?: number;
  concurrency?: number;
  /** A replica that dies mid-send leaves its claim to be taken again after this. */
  leaseMs?: number;
  /** host:pid by default. */
  owner?: string;
}

export const PUSH_DEFAULTS = {
  minIntervalMs: 15 * 60_000,
  batchSize: 200,
  concurrency: 8,
  maxAttempts: 8,
  leaseMs: 2 * 60_000,
  retryBaseMs: 30_000,
  retryMaxMs: 30 * 60_000,
} as const;

/** WeCom busy, its frequency (45009) and concurrency (45033) limits, tokens gone bad. */
const RETRYABLE_ERRCODES = new Set([-1, 45009, 45033, ...STALE_TOKEN_ERRCODES]);

type Outcome = 'sent' | 'retried' | 'failed' | 'skipped' | 'deferred';
export type DispatchResult = Record<Outcome, number>;

const p = tableAlias(motPushes, 'p');
const q = tableAlias(motPushes, 'q');
const other = tableAlias(motPushes, 'other');
const me = tableAlias(motPushes, 'me');
const s = tableAlias(staff, 's');
const pe = tableAlias(motPushEvents, 'pe');

/** `body`: the JSON fixed before the first attempt (null: not built yet). */
const claimedColumns = selection({
  id: float8(p.id),
  corpId: p.corpId,
  staffId: p.staffId,
  userid: s.wecomUserId,
  language: s.language,
  body: p.body,
  attempts: p.attempts,
  firstAttemptMs: epochMs(p.firstAttemptAt),
  maybeDelivered: p.maybeDelivered,
  lastSentMs: sql<number | null>`(select floor(extract(epoch from max(${q.sentAt})) * 1000)::float8 from ${tableAs(q)}
    where ${q.staffId} = ${p.staffId} and ${q.status} = 'sent')`,
});
type ClaimedCard = RowOf<typeof claimedColumns>;

/**
 * Sends every due card once (ADR 0042). Claims due rows `FOR UPDATE SKIP LOCKED` under a lease (a lapsed one is
 * claimed again). The body is fixed before the first attempt and resent unchanged, so WeCom drops a resend
 * within its 4 h duplicate check; past it, a card that may have arrived is given up rather than sent twice.
 * Quiet hours and the per-member interval defer; errors retry with back-off; `invaliduser` fails for good.
 */
export async function dispatchMotPushes(database: DatabaseHandle, options: DispatchOptions): Promise<DispatchResult> {
  const now = options.now ?? Date.now;
  const settings = { ...PUSH_DEFAULTS, ...definedOnly(options) };
  const owner = options.owner ?? `${hostname()}:${process.pid}`;
  const result: DispatchResult = { sent: 0, retried: 0, failed: 0, skipped: 0, deferred: 0 };
  const sendableAt = nextSendableAt(now(), options.quietHours ?? null);
  if (sendableAt > now()) return result;
  for (let round = 0; round < 1000; round += 1) {
    const claimed = await claim(database, owner, settings.batchSize, settings.leaseMs, now());
    if (claimed.length === 0) break;
    let next = 0;
    const worker = async () => {
      while (next < claimed.length) {
        const card = claimed[next++]!;
        const outcome = await deliver(database, card, options, settings, now);
        result[outcome] += 1;
      }
    };
    await Promise.all(Array.from({ length: Math.min(settings.concurrency, claimed.length) }, worker));
  }
  return result;
}

const definedOnly = (options: DispatchOptions) =>
  Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<typeof PUSH_DEFAULTS>;

async function claim(database: DatabaseHandle, owner: string, limit: number, leaseMs: number, now: number): Promise<ClaimedCard[]> {
  const at = new Date(now).toISOString();
  return selectRows(
    database.db,
    rowsQuery<ClaimedCard>(sql`
      with due as (
        select ${motPushes.id} from ${motPushes}
         where (${motPushes.status} in ('pending', 'retry') and ${motPushes.notBefore} <= ${at}::timestamptz)
            or (${motPushes.status} = 'sending' and ${motPushes.leaseUntil} < ${at}::timestamptz)
         order by ${motPushes.notBefore}, ${motPushes.id}
         limit ${limit}
         for update skip locked
      )
      update ${tableAs(p)}
         set ${columnName(p.status)} = 'sending', ${columnName(p.claimedBy)} = ${owner},
             ${columnName(p.leaseUntil)} = ${at}::timestamptz + ${`${leaseMs} milliseconds`}::interval,
             -- Found still sending: its replica died mid-send, so WeCom may have it.
             ${columnName(p.maybeDelivered)} = ${p.maybeDelivered} or ${p.status} = 'sending'
        from due, ${tableAs(s)}
       where ${p.id} = due.id and ${s.id} = ${p.staffId}
      returning ${claimedColumns}
    `),
  );
}

async function deliver(
  database: DatabaseHandle,
  card: ClaimedCard,
  options: DispatchOptions,
  settings: typeof PUSH_DEFAULTS,
  now: () => number,
): Promise<Outcome> {
  const thisCard = eq(motPushes.id, card.id);
  const stillClaimed = and(thisCard, eq(motPushes.status, 'sending'));
  const update = (set: PgUpdateSetSource<typeof motPushes>) =>
    database.db
      .update(motPushes)
      .set({ ...set, leaseUntil: null })
      .where(stillClaimed);
  const attempted = sql`${motPushes.attempts} + 1`;
  const corp = options.corps.find((entry) => entry.id === card.corpId);
  if (!corp?.agents.mot) {
    await update({ status: 'failed', lastError: 'the mot agent is not configured for this corp' });
    return 'failed';
  }
  let body = card.body;
  if (!body) {
    // At most one card per member per interval; new events keep joining it.
    if (card.lastSentMs !== null && now() - card.lastSentMs < settings.minIntervalMs) {
      const at = new Date(nextSendableAt(card.lastSentMs + settings.minIntervalMs, options.quietHours ?? null));
      if (await backToPending(database, card.id, at)) return 'deferred';
      // Another card of this member is already waiting: this one's events join it.
      await database.db.update(motPushes).set({ status: 'skipped', leaseUntil: null, lastError: 'merged' }).where(thisCard);
      return 'skipped';
    }
    const built = await buildBody(database, card, corp, options.appUrl, now());
    if (!built) {
      await update({ status: 'skipped', lastError: 'no event still new' });
      return 'skipped';
    }
    body = JSON.stringify(built);
    // Written before the first attempt: every attempt sends these very bytes.
    await database.db
      .update(motPushes)
      .set({ body, firstAttemptAt: new Date(now()), attempts: attempted })
      .where(stillClaimed);
  } else if (
    card.maybeDelivered &&
    card.firstAttemptMs !== null &&
    now() - card.firstAttemptMs > (DUPLICATE_CHECK_INTERVAL_S - 600) * 1000
  ) {
    // WeCom would no longer recognise a resend: better one card missing than two.
    await update({ status: 'failed', lastError: 'outcome unknown past the duplicate-check window' });
    return 'failed';
  } else {
    await database.db.update(motPushes).set({ attempts: attempted }).where(thisCard);
  }
  try {
    const answer = await options.send(corp, 'mot', JSON.parse(body) as Record<string, unknown>);
    if (answer.invalidUsers.includes(card.userid.toLowerCase()) || answer.unlicensedUsers.includes(card.userid.toLowerCase())) {
      await update({ status: 'failed', lastError: `WeCom did not send to ${card.userid} (invaliduser/unlicenseduser)` });
      return 'failed';
    }
    await update({ status: 'sent', sentAt: new Date(now()), msgid: answer.msgid, lastError: null });
    return 'sent';
  } catch (error) {
    const wecom = error instanceof WecomApiError ? error : null;
    const message = wecom ? `${wecom.errcode} ${wecom.errmsg}` : error instanceof Error ? error.message : String(error);
    // No answer (timeout, network): WeCom may have sent it.
    const unknown = !wecom || wecom.unreachable;
    const maybeDelivered = sql`${motPushes.maybeDelivered} or ${unknown}`;
    const attempts = card.attempts + 1;
    if (
      wecom?.errcode === 81013 ||
      attempts >= settings.maxAttempts ||
      (wecom && !wecom.unreachable && !RETRYABLE_ERRCODES.has(wecom.errcode) && attempts >= 3)
    ) {
      await update({ status: 'failed', lastError: message, maybeDelivered });
      return 'failed';
    }
    const delay = Math.min(settings.retryBaseMs * 2 ** (attempts - 1), settings.retryMaxMs) * (0.75 + Math.random() / 2);
    const notBefore = new Date(nextSendableAt(now() + delay, options.quietHours ?? null));
    // Its body is fixed: later events must not join it.
    await update({ status: 'retry', notBefore, lastError: message, maybeDelivered });
    return 'retried';
  }
}

/** Unless another card of the member is waiting already (the unique index). */
async function backToPending(database: DatabaseHandle, id: number, notBefore: Date): Promise<boolean> {
  try {
    const rows = await database.db
      .update(motPushes)
      .set({ status: 'pending', notBefore, leaseUntil: null })
      .where(
        and(
          eq(motPushes.id, id),
          eq(motPushes.status, 'sending'),
          sql`not exists (select 1 from ${tableAs(other)} where ${other.staffId} = ${motPushes.staffId} and ${other.status} = 'pending')`,
        ),
      )
      .returning({ id: motPushes.id });
    if (rows.length > 0) return true;
  } catch {
    // A trigger queued a card for this member meanwhile (mot_push_one_pending_uq): join it below.
  }
  // Hand this card's events to the waiting one, so none is lost.
  const waiting = sql<number>`(select ${other.id} from ${tableAs(other)} join ${tableAs(me)} on ${me.id} = ${id}
    where ${other.staffId} = ${me.staffId} and ${other.status} = 'pending')`;
  await database.db.update(motPushEvents).set({ pushId: waiting }).where(eq(motPushEvents.pushId, id));
  return false;
}

/** From its events still new now, the highest by the ranked day's score (ADR 0041); null when none is. */
async function buildBody(
  database: DatabaseHandle,
  card: ClaimedCard,
  corp: PushCorp,
  appUrl: string,
  now: number,
): Promise<Record<string, unknown> | null> {
  const today = hongKongDay(now);
  const { e, c, joins, order } = eventRanking(rankWeightsOf(corp.motRank), today);
  const columns = selectionWithValues({
    eventId: float8(e.id),
    rule: e.rule,
    customerName: c.nameCn,
    dueDate: asText(e.dueDate),
    total: sql<number>`count(*) over ()::int`,
  });
  const rows = await selectRows(
    database.db,
    selectQuery(
      columns,
      sql`from ${tableAs(pe)}
        join ${tableAs(e)} on ${e.id} = ${pe.eventId}
        ${joins}
       where ${pe.pushId} = ${card.id} and ${pe.pushId} > 0 and ${e.status} = 'new'
       order by ${order}
       limit ${CARD_TOP_EVENTS}`,
    ),
  );
  if (rows.length === 0) return null;
  return buildTextcard({
    pushId: card.id,
    userid: card.userid,
    count: rows[0]!.total,
    events: rows.map(({ eventId, rule, customerName, dueDate }) => ({ eventId, rule, customerName, dueDate })),
    entry: { appUrl, corpCode: corp.code, corpId: corp.corpId, agentId: corp.agents.mot!.agentId },
    today,
    language: card.language,
  });
}
