import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { encrypt, getSignature } from '@wecom/crypto';
import type { EmulatorCorp, EmulatorExternalContact } from './directory';
import type { EmulatorState } from './state';

/**
 * WeCom's side of the 客户联系 change callback: a control changes a follower in the emulated directory, then the
 * change_external_contact event is POSTed to the corp's callback URL, signed and encrypted, kept for a replay.
 */

/** CDATA cannot hold `]]>`: split it across two sections, as any XML writer would. */
const cdata = (value: string) => `<![CDATA[${value.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;

const eventXml = (corpId: string, fields: Record<string, string | number | undefined>) =>
  `<xml><ToUserName>${cdata(corpId)}</ToUserName><FromUserName>${cdata('sys')}</FromUserName>${Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => (typeof value === 'number' ? `<${name}>${value}</${name}>` : `<${name}>${cdata(String(value))}</${name}>`))
    .join('')}</xml>`;

const nonce = () => randomBytes(8).toString('hex');

/** Seals `message` for the corp as WeCom does: encrypt, then sign (timestamp, nonce, ciphertext). */
export function sealForCorp(corp: EmulatorCorp, message: string, timestamp: number) {
  if (!corp.callback) throw new Error(`corp ${corp.code} has no callback Token / EncodingAESKey`);
  const ciphertext = encrypt(corp.callback.encodingAesKey, message, corp.corpId);
  const query = { timestamp: String(timestamp), nonce: nonce() };
  return { ciphertext, query: { msg_signature: getSignature(corp.callback.token, query.timestamp, query.nonce, ciphertext), ...query } };
}

type FollowBody = Record<string, unknown>;

const text = (value: unknown) => (typeof value === 'string' ? value : '');

export async function registerContactCallbackRoutes(app: FastifyInstance, state: EmulatorState) {
  /** The last callback: the exact request WeCom sent (replayable) and the answer it had. */
  let lastDelivered: Awaited<ReturnType<typeof deliver>> | null = null;

  const corpOf = (corpId: string) => (corpId ? state.corpById(corpId) : state.corps[0]);

  async function deliver(url: string, query: Record<string, string>, body: string) {
    const target = new URL(url);
    for (const [key, value] of Object.entries(query)) target.searchParams.set(key, value);
    const response = await fetch(target, { method: 'POST', headers: { 'content-type': 'text/xml' }, body });
    const delivered = { url, request: { query, body }, status: response.status, body: await response.text() };
    lastDelivered = delivered;
    state.stats.callbacks += 1;
    return delivered;
  }

  async function sendChange(corp: EmulatorCorp, fields: Record<string, string | number | undefined>) {
    const url = state.callbackUrl?.(corp);
    if (!url || !corp.callback) return null;
    const createTime = Math.floor(state.now() / 1000);
    const message = eventXml(corp.corpId, { CreateTime: createTime, MsgType: 'event', Event: 'change_external_contact', ...fields });
    const { ciphertext, query } = sealForCorp(corp, message, createTime);
    const agentId = corp.agents.khzl.agentId;
    const body = `<xml><ToUserName>${cdata(corp.corpId)}</ToUserName><AgentID>${cdata(agentId)}</AgentID><Encrypt>${cdata(ciphertext)}</Encrypt></xml>`;
    return deliver(url, query, body);
  }

  const contactOf = (externalUserId: string) => state.externalContacts.find((contact) => contact.externalUserId === externalUserId);

  /** A customer adds the member (say, by scanning their 「联系我」 QR code carrying `state`). */
  app.post('/__emulator/external-contact/add', async (request, reply) => {
    const body = (request.body ?? {}) as FollowBody;
    const corp = corpOf(text(body.corpId));
    const userid = text(body.userid);
    const externalUserId = text(body.externalUserId);
    if (!corp || !state.staffById(userid) || !/^[A-Za-z0-9_-]{1,64}$/.test(externalUserId)) {
      return reply.code(400).send({ error: 'corpId (optional), userid of a member and externalUserId are required' });
    }
    let contact: EmulatorExternalContact | undefined = contactOf(externalUserId);
    if (!contact) {
      contact = { externalUserId, name: text(body.name) || externalUserId, gender: 1, followedBy: [] };
      state.externalContacts.push(contact);
    }
    if (!contact.followedBy.includes(userid)) contact.followedBy.push(userid);
    const delivered = await sendChange(corp, {
      ChangeType: 'add_external_contact',
      UserID: userid,
      ExternalUserID: externalUserId,
      State: text(body.state) || undefined,
      WelcomeCode: nonce(),
    });
    return { ok: true, delivered };
  });

  /** `by: 'customer'` — the customer deleted the member (del_follow_user); `by: 'member'` — the reverse (del_external_contact). */
  app.post('/__emulator/external-contact/delete', async (request, reply) => {
    const body = (request.body ?? {}) as FollowBody;
    const corp = corpOf(text(body.corpId));
    const userid = text(body.userid);
    const contact = contactOf(text(body.externalUserId));
    const by = text(body.by);
    if (!corp || !contact || !contact.followedBy.includes(userid) || (by !== 'customer' && by !== 'member')) {
      return reply.code(400).send({ error: 'userid must follow externalUserId, and by must be customer or member' });
    }
    contact.followedBy = contact.followedBy.filter((follower) => follower !== userid);
    const delivered = await sendChange(corp, {
      ChangeType: by === 'customer' ? 'del_follow_user' : 'del_external_contact',
      UserID: userid,
      ExternalUserID: contact.externalUserId,
      ...(by === 'member' && text(body.source) ? { Source: text(body.source) } : {}),
    });
    return { ok: true, delivered };
  });

  /** WeCom's retry: the last callback again, byte for byte (same signature, timestamp and nonce). */
  app.post('/__emulator/callback/replay', async (_request, reply) => {
    if (!lastDelivered) return reply.code(409).send({ error: 'no callback delivered yet' });
    return { ok: true, delivered: await deliver(lastDelivered.url, lastDelivered.request.query, lastDelivered.request.body) };
  });

  /** The admin console's "save": WeCom GETs the URL with an encrypted echostr and expects its plaintext back. */
  app.post('/__emulator/callback/verify', async (request, reply) => {
    const corp = corpOf(text((request.body as FollowBody | undefined)?.corpId));
    const url = corp ? state.callbackUrl?.(corp) : undefined;
    if (!corp || !url || !corp.callback) return reply.code(400).send({ error: 'corp has no callback URL, Token or EncodingAESKey' });
    const echo = nonce();
    const { ciphertext, query } = sealForCorp(corp, echo, Math.floor(state.now() / 1000));
    const target = new URL(url);
    for (const [key, value] of Object.entries({ ...query, echostr: ciphertext })) target.searchParams.set(key, value);
    const response = await fetch(target);
    const answer = await response.text();
    return { ok: response.status === 200 && answer === echo, status: response.status, body: answer };
  });
}
