import type { AppLanguage, MotRule } from '@broker/contract';
import { MOT_RULE_NAMES } from '@broker/contract/mot-rule-names';

/** WeCom's textcard limits (document/path/90236): WeCom cuts what is longer; we never let it. */
export const TEXTCARD_LIMITS = { title: 128, description: 512, urlBytes: 2048, btntxt: 4 } as const;

/** The count covers all of them. */
export const CARD_TOP_EVENTS = 3;

/** WeCom drops a repeat of the same request JSON within this window (its maximum, 4 hours). */
export const DUPLICATE_CHECK_INTERVAL_S = 4 * 3600;

export interface CardEvent {
  eventId: number;
  rule: string;
  customerName: string;
  dueDate: string;
}

/**
 * In the manager's language (staff.language; WeCom holds none per member); rule names are the contract's, as the
 * web's. Days in ISO order (`MM-DD`), as the web writes them in every language.
 */
interface CardWords {
  rules: Record<MotRule, string>;
  title: (count: number) => string;
  /** Under the rows when the card names fewer events than it counts. */
  more: (count: number) => string;
  /** At most TEXTCARD_LIMITS.btntxt characters. */
  button: string;
}

const plural = (count: number, one: string, many: string) => (count === 1 ? one : many);

export const CARD_WORDS: Record<AppLanguage, CardWords> = {
  'zh-CN': {
    rules: MOT_RULE_NAMES['zh-CN'],
    title: (count) => `MOT：${count} 个新事件待跟进`,
    more: (count) => `另有 ${count} 个事件`,
    button: '查看',
  },
  'zh-HK': {
    rules: MOT_RULE_NAMES['zh-HK'],
    title: (count) => `MOT：${count} 個新事件待跟進`,
    more: (count) => `另有 ${count} 個事件`,
    button: '查看',
  },
  en: {
    rules: MOT_RULE_NAMES.en,
    title: (count) => `MOT: ${count} new ${plural(count, 'event', 'events')} to follow up`,
    more: (count) => `${count} more ${plural(count, 'event', 'events')}`,
    button: 'View',
  },
};

/** The first character and asterisks: a WeCom message shows on a locked phone and passes Tencent's servers (ADR 0042). */
export const maskedClientName = (name: string) => {
  const characters = [...name.trim()];
  if (characters.length === 0) return '—';
  return `${characters[0]}${'*'.repeat(Math.min(Math.max(characters.length - 1, 1), 3))}`;
};

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The mot agent's own entry, which signs in through WeCom OAuth first. */
export interface PushEntry {
  appUrl: string;
  corpCode: string;
  corpId: string;
  agentId: string;
}

/**
 * Opened as a WeCom menu link would open it: the app, finding no session, signs in for the mot agent and comes
 * back here (ADR 0011, docs/spec.md §4). One event: that event; several: the MOT home.
 */
export function cardUrl(entry: PushEntry, events: readonly CardEvent[], count: number, pushId: number): string {
  const single = count === 1 && events.length === 1;
  const url = new URL(single ? '/mot/eventDetail' : '/mot/home', entry.appUrl);
  if (single) url.searchParams.set('eventId', String(events[0]!.eventId));
  url.searchParams.set('corpCode', entry.corpCode);
  url.searchParams.set('agentCode', 'mot');
  url.searchParams.set('agentId', entry.agentId);
  url.searchParams.set('wxAppId', entry.corpId);
  // Every card's JSON unique, so WeCom's duplicate check drops only a resend of this very card.
  url.searchParams.set('push', String(pushId));
  return url.toString();
}

/** Without agentid, which the client sets from the configuration. */
export function buildTextcard(input: {
  pushId: number;
  userid: string;
  count: number;
  events: readonly CardEvent[];
  entry: PushEntry;
  today: string;
  /** Default zh-CN. */
  language?: AppLanguage | undefined;
}) {
  const { count, events } = input;
  const words = CARD_WORDS[input.language ?? 'zh-CN'];
  const title = words.title(count);
  const rows = events.map(
    (event) =>
      `<div class="normal">${escapeHtml(words.rules[event.rule as MotRule] ?? event.rule)} · ${escapeHtml(maskedClientName(event.customerName))} · ${event.dueDate.slice(5)}</div>`,
  );
  const more = count > events.length ? `<div class="highlight">${escapeHtml(words.more(count - events.length))}</div>` : '';
  let description = `<div class="gray">${input.today}</div>${rows.join('')}${more}`;
  // Drop rows rather than let WeCom cut mid-tag.
  while ([...description].length > TEXTCARD_LIMITS.description && rows.length > 1) {
    rows.pop();
    description = `<div class="gray">${input.today}</div>${rows.join('')}<div class="highlight">${escapeHtml(words.more(count - rows.length))}</div>`;
  }
  return {
    touser: input.userid,
    msgtype: 'textcard',
    textcard: { title, description, url: cardUrl(input.entry, events, count, input.pushId), btntxt: words.button },
    enable_id_trans: 0,
    enable_duplicate_check: 1,
    duplicate_check_interval: DUPLICATE_CHECK_INTERVAL_S,
  };
}
