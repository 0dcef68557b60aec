import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EmulatorState } from './state';
import { WecomErr } from './errors';
import type { EmulatorStaff } from './directory';
import { escapeHtml, pageHeader, renderPage, staffList } from './authorize-page';

/**
 * 发送应用消息 (document/path/90236) for `textcard` and `text`, as strict as WeCom documents it: the errcodes below,
 * fields cut to WeCom's limits (recorded in `cut`), enable_duplicate_check, and messages past the per-member limit
 * answered ok and dropped ("超过部分会被丢弃不下发"). A broken field WeCom names no errcode for answers 40058.
 */
export interface InboxMessage {
  msgid: string;
  corpId: string;
  agentId: string;
  userid: string;
  msgtype: 'textcard' | 'text';
  textcard?: { title: string; description: string; url: string; btntxt: string };
  text?: { content: string };
  /** Fields WeCom cut to its limits (a well-built card has none). */
  cut: string[];
  /** False when WeCom's per-member limit dropped it. */
  delivered: boolean;
  at: number;
}

export const TEXTCARD_LIMITS = { title: 128, description: 512, urlBytes: 2048, btntxt: 4 } as const;
export const MAX_TOUSER = 1000;
export const PER_MEMBER_PER_MINUTE = 30;
export const PER_MEMBER_PER_HOUR = 1000;
const DEFAULT_DUPLICATE_INTERVAL_S = 1800;
const MAX_DUPLICATE_INTERVAL_S = 4 * 3600;

const invalid = (field: string, rule: string) => ({
  errcode: WecomErr.INVALID_PARAMETER.errcode,
  errmsg: `invalid Request Parameter: ${field} ${rule}`,
});
const chars = (text: string) => [...text];
const cutTo = (text: string, limit: number) => chars(text).slice(0, limit).join('');

interface SendBody {
  touser?: unknown;
  toparty?: unknown;
  totag?: unknown;
  msgtype?: unknown;
  agentid?: unknown;
  textcard?: { title?: unknown; description?: unknown; url?: unknown; btntxt?: unknown };
  text?: { content?: unknown };
  enable_duplicate_check?: unknown;
  duplicate_check_interval?: unknown;
}

/** A textcard description as WeCom's client shows it: `<div class="gray|normal|highlight">` and `<br>` only, the rest as text. */
function renderDescription(description: string) {
  const parts = description.split(/(<div class="(?:gray|normal|highlight)">|<\/div>|<br\s*\/?>)/);
  return parts
    .map((part) => {
      const open = /^<div class="(gray|normal|highlight)">$/.exec(part);
      if (open) return `<div class="card-${open[1]}">`;
      if (part === '</div>') return '</div>';
      if (/^<br\s*\/?>$/.test(part)) return '<br>';
      // Entities the sender escaped stay escaped; raw text is escaped here.
      return escapeHtml(
        part
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&quot;/g, '"')
          .replace(/&amp;/g, '&'),
      );
    })
    .join('');
}

export function renderInboxPage(input: {
  member: EmulatorStaff | undefined;
  staff: EmulatorStaff[];
  messages: InboxMessage[];
  stylesheetUrl: string;
  inboxUrl: (userid: string) => string;
}) {
  if (!input.member)
    return renderPage(
      '企业微信消息（模拟）',
      input.stylesheetUrl,
      pageHeader('应用消息', '模拟企业微信 · 选择成员查看收到的消息 / Choose a member to see their messages') +
        staffList(input.staff, input.inboxUrl, (member) => member.userid),
    );
  const cards = input.messages
    .filter((message) => message.delivered)
    .reverse()
    .map((message) => {
      const meta = `<div class="meta">${escapeHtml(new Date(message.at).toLocaleString('zh-CN', { timeZone: 'Asia/Hong_Kong', hour12: false }))}</div>`;
      const card = message.textcard
        ? `<h2>${escapeHtml(message.textcard.title)}</h2>${renderDescription(message.textcard.description)}${meta}<a class="more" href="${escapeHtml(message.textcard.url)}">${escapeHtml(message.textcard.btntxt)}</a>`
        : `<div class="card-normal">${escapeHtml(message.text?.content ?? '')}</div>${meta}`;
      return `<article class="card" data-msgid="${escapeHtml(message.msgid)}">${card}</article>`;
    })
    .join('');
  return renderPage(
    '企业微信消息（模拟）',
    input.stylesheetUrl,
    pageHeader(input.member.name, `应用消息 · ${input.member.userid}`) +
      `<main class="inbox">${cards || '<p class="empty">暂无消息 / No messages</p>'}</main>`,
  );
}

export async function registerMessageSendRoutes(
  app: FastifyInstance,
  state: EmulatorState,
  withToken: (
    stat: 'messageSend',
    handle: (call: { request: FastifyRequest; reply: FastifyReply; token: { corpId: string; agentId: string } }) => unknown,
  ) => (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
) {
  app.post(
    '/cgi-bin/message/send',
    withToken('messageSend', ({ request, token }) => {
      const body = request.body as SendBody | undefined;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) return { errcode: 47001, errmsg: 'data format error' };
      const queued = state.messageFailures.shift();
      if (queued !== undefined) return { errcode: queued, errmsg: queued === 45033 ? 'api concurrent out of limit' : 'injected failure' };
      if (body.agentid === undefined || body.agentid === null || body.agentid === '') return { errcode: 41011, errmsg: 'missing agentid' };
      const corp = state.corpById(token.corpId)!;
      const agentId = typeof body.agentid === 'number' && Number.isInteger(body.agentid) ? String(body.agentid) : null;
      if (agentId === null || !Object.values(corp.agents).some((agent) => agent.agentId === agentId))
        return { ...WecomErr.INVALID_AGENTID };
      if (agentId !== token.agentId) return { ...WecomErr.ANOTHER_AGENT };
      const list = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.split('|').map((id) => id.trim()) : []);
      const touser = list(body.touser);
      if (touser.length === 0 && list(body.toparty).length === 0 && list(body.totag).length === 0) {
        return invalid('touser', 'touser, toparty and totag cannot all be empty');
      }
      if (touser.length > MAX_TOUSER) return invalid('touser', `at most ${MAX_TOUSER} ids`);
      if (body.msgtype !== 'textcard' && body.msgtype !== 'text') return { errcode: 40008, errmsg: 'invalid message type' };
      const cut: string[] = [];
      let content: Pick<InboxMessage, 'textcard' | 'text'>;
      if (body.msgtype === 'textcard') {
        const card = body.textcard;
        if (typeof card !== 'object' || card === null) return { errcode: 41016, errmsg: 'missing title' };
        if (typeof card.title !== 'string' || card.title === '') return { errcode: 41016, errmsg: 'missing title' };
        if (typeof card.description !== 'string' || card.description === '') return { errcode: 41033, errmsg: 'missing description' };
        if (typeof card.url !== 'string' || card.url === '') return invalid('url', 'missing');
        if (!/^https?:\/\//i.test(card.url)) return invalid('url', 'must begin with http:// or https://');
        if (Buffer.byteLength(card.url) > TEXTCARD_LIMITS.urlBytes) return invalid('url', `longer than ${TEXTCARD_LIMITS.urlBytes} bytes`);
        const btntxt = typeof card.btntxt === 'string' && card.btntxt !== '' ? card.btntxt : '详情';
        if (chars(card.title).length > TEXTCARD_LIMITS.title) cut.push('title');
        if (chars(card.description).length > TEXTCARD_LIMITS.description) cut.push('description');
        if (chars(btntxt).length > TEXTCARD_LIMITS.btntxt) cut.push('btntxt');
        content = {
          textcard: {
            title: cutTo(card.title, TEXTCARD_LIMITS.title),
            description: cutTo(card.description, TEXTCARD_LIMITS.description),
            url: card.url,
            btntxt: cutTo(btntxt, TEXTCARD_LIMITS.btntxt),
          },
        };
      } else {
        if (typeof body.text?.content !== 'string' || body.text.content === '') return { errcode: 41016, errmsg: 'missing content' };
        const bytes = Buffer.from(body.text.content);
        if (bytes.length > 2048) cut.push('content');
        content = { text: { content: bytes.length > 2048 ? bytes.subarray(0, 2048).toString() : body.text.content } };
      }
      const duplicateCheck = body.enable_duplicate_check === 1;
      const interval = body.duplicate_check_interval === undefined ? DEFAULT_DUPLICATE_INTERVAL_S : body.duplicate_check_interval;
      if (
        duplicateCheck &&
        (typeof interval !== 'number' || !Number.isInteger(interval) || interval < 1 || interval > MAX_DUPLICATE_INTERVAL_S)
      ) {
        return invalid('duplicate_check_interval', `must be 1..${MAX_DUPLICATE_INTERVAL_S} seconds`);
      }
      const valid = (touser[0] === '@all' ? state.staff.map((member) => member.userid) : touser).filter(
        (userid) => state.staffById(userid) && state.policies.isVisible(token.corpId, token.agentId, userid),
      );
      const invalidUsers = touser.filter((userid) => userid !== '@all' && !valid.includes(userid)).map((userid) => userid.toLowerCase());
      if (valid.length === 0) return { errcode: 81013, errmsg: 'user & party & tag all invalid' };
      const msgid = randomBytes(16).toString('base64url');
      const answer = { ...WecomErr.OK, invaliduser: invalidUsers.join('|'), invalidparty: '', invalidtag: '', unlicenseduser: '', msgid };
      if (duplicateCheck && state.isDuplicateMessage(token.corpId, token.agentId, JSON.stringify(body), (interval as number) * 1000)) {
        state.stats.messagesDeduplicated += 1;
        return answer;
      }
      for (const userid of valid) {
        state.deliverMessage({ msgid, corpId: token.corpId, agentId: token.agentId, userid, msgtype: body.msgtype, ...content, cut });
      }
      return answer;
    }),
  );

  /** What each member received (delivered or dropped by the per-member limit), oldest first: for tests. */
  app.get('/__emulator/inbox.json', async (request) => {
    const { userid } = request.query as { userid?: string };
    return { list: state.inbox.filter((message) => !userid || message.userid === userid) };
  });
  /** Queues errcodes the next message/send calls answer (after the token check), e.g. [45033]. */
  app.post('/__emulator/message/fail-next', async (request, reply) => {
    const { errcodes } = (request.body ?? {}) as { errcodes?: unknown };
    if (!Array.isArray(errcodes) || !errcodes.every((code) => Number.isInteger(code))) {
      return reply.code(400).send({ error: 'errcodes: must be an array of integers' });
    }
    state.messageFailures.push(...(errcodes as number[]));
    return { ok: true, queued: state.messageFailures.length };
  });
  /** A member's messages as WeCom's client shows them: each card, its link to follow. */
  app.get('/__emulator/inbox', async (request, reply) => {
    const { userid } = request.query as { userid?: string };
    const member = userid ? state.staffById(userid) : undefined;
    return reply
      .type('text/html')
      .header('cache-control', 'no-store')
      .send(
        renderInboxPage({
          member,
          staff: state.staff,
          messages: member ? state.inbox.filter((message) => message.userid === member.userid) : [],
          stylesheetUrl: `${app.prefix}/__emulator/emulator.css`,
          inboxUrl: (id) => `${app.prefix}/__emulator/inbox?userid=${encodeURIComponent(id)}`,
        }),
      );
  });
}
