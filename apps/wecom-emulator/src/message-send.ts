import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EmulatorState } from './state';
import { WecomErr } from './errors';

/**
 * 发送应用消息 (developer.work.weixin.qq.com/document/path/90236), as strict as WeCom where WeCom documents
 * a rule, for the msgtypes the app sends (`textcard`; `text` too):
 *
 * - a live access_token of the app (the gateway in admin-console.ts adds 45009 / -1 / IP refusals);
 * - `agentid` an integer naming the token's own app: missing 41011, unknown 40056, another app 301002;
 * - `touser` / `toparty` / `totag` not all empty, touser at most 1000 ids split by `|` (40058 otherwise);
 *   ids outside the app's visible range or unknown come back in `invaliduser` (lower-cased), and when
 *   none is valid the call fails with 81013;
 * - `msgtype` one of the above (40008 otherwise); textcard `title` (41016 missing), `description`
 *   (41033 missing) and `url` (40058 missing, not http(s), over 2048 bytes) required; title over 128
 *   characters, description over 512 and btntxt over 4 are cut, as WeCom cuts them (recorded in `cut`);
 * - `enable_duplicate_check`: the same request JSON within `duplicate_check_interval` (default 1800 s,
 *   at most 4 h) answers ok and is not delivered again;
 * - per member and app at most 30 messages a minute and 1000 an hour: beyond, WeCom answers ok and drops
 *   the message ("超过部分会被丢弃不下发"), recorded here as not delivered.
 *
 * Where WeCom's documentation names no errcode for a broken field, the emulator answers 40058 (invalid
 * Request Parameter) with an errmsg naming the field.
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

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);

/**
 * A textcard description as WeCom's client shows it: `<div class="gray|normal|highlight">` and `<br>`
 * only; anything else is shown as text.
 */
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

export const INBOX_STYLESHEET = `.inbox{margin:12px;display:flex;flex-direction:column;gap:12px}
.card{background:#fff;border-radius:10px;padding:16px;box-shadow:0 1px 2px rgba(0,0,0,.06)}
.card h2{font-size:17px;margin:0 0 10px;line-height:1.4;word-break:break-word}
.card .card-gray{color:#86909c;font-size:13px;margin-bottom:6px}.card .card-normal{font-size:15px;line-height:1.6}
.card .card-highlight{color:#0082ef;font-size:14px;margin-top:6px}
.card .meta{font-size:12px;color:#86909c;margin-top:10px}
.card a.more{display:block;border-top:1px solid #f0f1f2;margin:12px -16px -16px;padding:12px 16px;color:#1f2329;text-decoration:none;font-size:14px}
.card a.more::after{content:"›";float:right;color:#c9cdd4}
.empty{text-align:center;color:#86909c;padding:40px 20px}
`;

export function renderInboxPage(input: {
  member: { userid: string; name: string } | undefined;
  staff: { userid: string; name: string }[];
  messages: InboxMessage[];
  stylesheetUrl: string;
  inboxUrl: (userid: string) => string;
}) {
  const head = `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>企业微信消息（模拟）</title>
<link rel="stylesheet" href="${escapeHtml(input.stylesheetUrl)}">
</head><body>`;
  if (!input.member) {
    const rows = input.staff
      .map(
        (member) =>
          `<li><a class="staff" href="${escapeHtml(input.inboxUrl(member.userid))}"><span class="avatar">${escapeHtml(member.name.slice(0, 1))}</span><span class="who"><b>${escapeHtml(member.name)}</b><small>${escapeHtml(member.userid)}</small></span><span class="go">›</span></a></li>`,
      )
      .join('');
    return `${head}<header><div class="logo">企</div><h1>应用消息</h1><p>模拟企业微信 · 选择成员查看收到的消息 / Choose a member to see their messages</p></header><ul>${rows}</ul></body></html>`;
  }
  const cards = input.messages
    .filter((message) => message.delivered)
    .slice()
    .reverse()
    .map((message) => {
      const when = new Date(message.at).toLocaleString('zh-CN', { timeZone: 'Asia/Hong_Kong', hour12: false });
      if (message.textcard) {
        return `<article class="card" data-msgid="${escapeHtml(message.msgid)}"><h2>${escapeHtml(message.textcard.title)}</h2>${renderDescription(message.textcard.description)}<div class="meta">${escapeHtml(when)}</div><a class="more" href="${escapeHtml(message.textcard.url)}">${escapeHtml(message.textcard.btntxt)}</a></article>`;
      }
      return `<article class="card" data-msgid="${escapeHtml(message.msgid)}"><div class="card-normal">${escapeHtml(message.text?.content ?? '')}</div><div class="meta">${escapeHtml(when)}</div></article>`;
    })
    .join('');
  return `${head}<header><div class="logo">企</div><h1>${escapeHtml(input.member.name)}</h1><p>应用消息 · ${escapeHtml(input.member.userid)}</p></header><main class="inbox">${cards || '<p class="empty">暂无消息 / No messages</p>'}</main></body></html>`;
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
