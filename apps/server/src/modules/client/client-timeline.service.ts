import {
  TIMELINE_DEFAULT_KINDS,
  contactChannelSchema,
  contactPurposeSchema,
  timelineCursorText,
  type DynamicItem,
  type TimelineItem,
  type TimelineKind,
  type getTimeline as getTimelineEndpoint,
} from '@broker/contract';
import type { ExchangeRates } from '@broker/domain';
import { auditChanges } from '../audit';
import type { z } from 'zod';
import type { Database } from '../../db/client';
import type { Caller } from '../../http/caller';
import { amountWithHkd, readOwnWithRates } from './client-reads';
import {
  TIMELINE_TOP,
  timelinePage,
  type AuditData,
  type SecurityData,
  type TimelineOptions,
  type TimelineRow,
} from './client-timeline.repository';

const securityOf = (data: SecurityData) => ({
  symbol: data.symbol,
  securityNameCn: data.nameCn,
  securityNameHk: data.nameHk,
  securityNameEn: data.nameEn,
});

const KYC_ACTION = { 'kyc.bind': 'bind', 'kyc.unbind': 'unbind', 'kyc.stale': 'stale', 'kyc.fresh': 'fresh' } as const;
const kycAction = (action: string) => KYC_ACTION[action as keyof typeof KYC_ACTION] ?? 'bind';
const viaOf = (data: AuditData) => {
  const via = (data.after ?? data.before)?.via;
  return typeof via === 'string' ? via : null;
};

function toTimelineItem(row: TimelineRow, rates: ExchangeRates): TimelineItem {
  const base = { at: row.at, staffName: row.staffName };
  switch (row.source) {
    case 'contact':
      return {
        ...base,
        key: `contact:${row.data.threadId}`,
        kind: 'contact',
        contact: {
          recordId: row.id,
          ...row.data,
          channel: contactChannelSchema.catch('other').parse(row.data.channel),
          purpose: contactPurposeSchema.catch('other').parse(row.data.purpose),
        },
      };
    case 'trade':
      return {
        ...base,
        key: `trade:${row.id}`,
        kind: 'trade',
        trade: {
          tradeId: row.id,
          side: row.data.side === 'sell' ? 'sell' : 'buy',
          ...securityOf(row.data),
          quantity: row.data.quantity,
          price: row.data.price,
          ...amountWithHkd(row.data, rates),
        },
      };
    case 'money':
      return {
        ...base,
        key: `money:${row.id}`,
        kind: 'money',
        money: {
          movementId: row.id,
          direction: row.data.direction === 'withdrawal' ? 'withdrawal' : 'deposit',
          ...amountWithHkd(row.data, rates),
          method: row.data.method,
        },
      };
    case 'transfer':
      return {
        ...base,
        key: `transfer:${row.id}`,
        kind: 'transfer',
        transfer: {
          transferId: row.id,
          direction: row.data.direction === 'out' ? 'out' : 'in',
          ...securityOf(row.data),
          quantity: row.data.quantity,
          counterparty: row.data.counterparty,
        },
      };
    case 'profileEdit':
      return { ...base, key: `edit:${row.id}`, kind: 'profileEdit', profileEdit: { changes: auditChanges(row.data) } };
    case 'kyc':
      return { ...base, key: `kyc:${row.id}`, kind: 'kyc', kyc: { action: kycAction(row.data.action), via: viaOf(row.data) } };
    case 'mot':
      return {
        ...base,
        key: `mot:${row.data.stage}:${row.id}`,
        kind: 'mot',
        mot: { eventId: row.id, ...row.data },
      };
  }
}

/** As getDynamic has always described them. */
function toDynamicItem(row: TimelineRow, rates: ExchangeRates): DynamicItem | null {
  const base = { at: row.at };
  switch (row.source) {
    case 'trade':
      return {
        ...base,
        key: `trade:${row.id}`,
        kind: 'trade',
        side: row.data.side,
        ...securityOf(row.data),
        quantity: row.data.quantity,
        price: row.data.price,
        ...amountWithHkd(row.data, rates),
      };
    case 'money':
      return {
        ...base,
        key: `money:${row.id}`,
        kind: row.data.direction === 'withdrawal' ? 'withdrawal' : 'deposit',
        ...amountWithHkd(row.data, rates),
      };
    case 'transfer':
      return {
        ...base,
        key: `transfer:${row.id}`,
        kind: row.data.direction === 'out' ? 'transferOut' : 'transferIn',
        ...securityOf(row.data),
        quantity: row.data.quantity,
        currency: row.data.currency,
      };
    case 'profileEdit':
      return { ...base, key: `edit:${row.id}`, kind: 'profileEdit', fields: Object.keys(row.data.after ?? {}), staffName: row.staffName };
    default:
      return null;
  }
}

type TimelineRequest = z.output<typeof getTimelineEndpoint.request>;

/**
 * Newest first (ADR 0040), with the ownership check and the rates in one statement: the kinds asked for (or the
 * default), a page and one more row. A null cursor: nothing further.
 */
export async function getTimeline(db: Database, caller: Caller, input: TimelineRequest) {
  const options: TimelineOptions = {
    sources: new Set<TimelineKind>(input.kinds ?? TIMELINE_DEFAULT_KINDS),
    cut: input.cursor ?? TIMELINE_TOP,
    rows: input.limit + 1,
    largeMoneyOnly: true,
  };
  const { rates, rows } = await readOwnWithRates(db, caller, input.customerId, (scope) => ({
    rows: timelinePage(scope, input.customerId, options),
  }));
  const shown = rows.slice(0, input.limit);
  const last = shown.at(-1);
  return {
    list: shown.map((row) => toTimelineItem(row, rates)),
    nextCursor: rows.length > input.limit && last ? timelineCursorText({ atMicros: last.atMicros, rank: last.rank, id: last.id }) : null,
  };
}

/**
 * The profile's older activity feed; `before` (whole ms, strictly older) pages further back: rank −1 is below every
 * item of that instant.
 */
export async function getDynamic(db: Database, caller: Caller, customerId: number, before: number | undefined, limit: number) {
  const options: TimelineOptions = {
    sources: new Set<TimelineKind>(['trade', 'money', 'transfer', 'profileEdit']),
    cut: before === undefined ? TIMELINE_TOP : { atMicros: before * 1000, rank: -1, id: 0 },
    rows: limit + 1,
    largeMoneyOnly: false,
  };
  const { rates, rows } = await readOwnWithRates(db, caller, customerId, (scope) => ({
    rows: timelinePage(scope, customerId, options),
  }));
  const items = rows.flatMap((row) => toDynamicItem(row, rates) ?? []);
  return { list: items.slice(0, limit), hasMore: items.length > limit };
}
