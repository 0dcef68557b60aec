import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import { EmulatorState, type EmulatorOptions, type EmulatorStats } from './state';
import { WecomErr } from './errors';
import { EMULATOR_STYLESHEET, renderAuthorizePage, renderErrorPage } from './authorize-page';
import { CLIENT_SESSION_COOKIE, registerJsBridgeRoutes } from './js-bridge';
import { registerContactCallbackRoutes } from './contact-callbacks';
import { oauthRefusal, registerAdminConsole, type Query } from './admin-console';
import { wecomError } from './agent-policy';
import { registerMessageSendRoutes } from './message-send';

type WecomError = (typeof WecomErr)[keyof typeof WecomErr];

export interface WecomEmulatorPluginOptions extends EmulatorOptions {
  /** Receives the state so a host (tests, the server) can inspect or steer it. */
  onState?: (state: EmulatorState) => void;
}

/**
 * WeCom's OAuth page and server API, same paths and JSON shapes, mounted under a prefix.
 * WeCom answers HTTP 200 with an errcode for API errors; so does this.
 */
export async function wecomEmulatorPlugin(app: FastifyInstance, options: WecomEmulatorPluginOptions) {
  const state = new EmulatorState(options);
  options.onState?.(state);
  await app.register(formbody);
  // First: its gateway hook must see every /cgi-bin route registered after it.
  await registerAdminConsole(app, state);

  const fail = (reply: FastifyReply, error: WecomError) => reply.send({ ...error });
  const stylesheetUrl = `${app.prefix}/__emulator/emulator.css`;
  app.get('/__emulator/emulator.css', async (_request, reply) =>
    reply.type('text/css').header('cache-control', 'no-cache').send(EMULATOR_STYLESHEET),
  );

  /** The error page WeCom's OAuth pages show instead of going on. */
  const errorPage = (reply: FastifyReply, status: number, error: { errcode: number; errmsg: string }) =>
    reply
      .code(status)
      .type('text/html')
      .send(renderErrorPage(error.errcode, error.errmsg, stylesheetUrl));

  /** Resolves `access_token` to the corp it was issued for, or answers the WeCom error. */
  const authenticate = (query: Query, reply: FastifyReply) => {
    const checked = state.checkAccessToken(query.access_token);
    if (checked === 'missing') return void fail(reply, WecomErr.MISSING_ACCESS_TOKEN);
    if (checked === 'invalid') return void fail(reply, WecomErr.INVALID_ACCESS_TOKEN);
    if (checked === 'expired') return void fail(reply, WecomErr.ACCESS_TOKEN_EXPIRED);
    return checked;
  };
  type Token = NonNullable<ReturnType<typeof authenticate>>;

  /** A server API call: counted in `stats`, and answered by `handle` only with a live access_token. */
  const withToken =
    (stat: keyof EmulatorStats, handle: (call: { request: FastifyRequest; reply: FastifyReply; query: Query; token: Token }) => unknown) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      const query = request.query as Query;
      state.stats[stat] += 1;
      const token = authenticate(query, reply);
      if (!token) return reply;
      return handle({ request, reply, query, token });
    };

  /** What the app's admin-console settings refuse of this authorisation request (oauthRefusal), if anything. */
  const refusalOf = (request: FastifyRequest, corpId: string, redirectUri: string, userid?: string) => {
    const query = request.query as Query;
    const asked = { corpId, agentId: query.agentid, scope: query.scope, redirectUri, reachedAt: request.headers.host };
    return oauthRefusal(state, userid ? { ...asked, userid } : asked);
  };

  app.get('/connect/oauth2/authorize', async (request, reply) => {
    const query = request.query as Query;
    const corp = query.appid ? state.corpById(query.appid) : undefined;
    if (!corp) return errorPage(reply, 400, WecomErr.INVALID_CORPID);
    if (!query.redirect_uri || !/^https?:\/\//.test(query.redirect_uri)) return errorPage(reply, 400, WecomErr.INVALID_REDIRECT);
    const agentKnown = Object.values(corp.agents).some((agent) => agent.agentId === query.agentid);
    if (query.scope === 'snsapi_privateinfo' && !agentKnown) return errorPage(reply, 400, WecomErr.INVALID_AGENTID);
    const refused = refusalOf(request, corp.corpId, query.redirect_uri);
    if (refused) return errorPage(reply, refused.status, refused);
    const confirmUrl = (userid: string) => {
      const params = new URLSearchParams({ ...(query as Record<string, string>), userid });
      return `${request.url.split('?')[0]}/confirm?${params.toString()}`;
    };
    return reply.type('text/html').send(renderAuthorizePage({ corpName: corp.name, staff: state.staff, confirmUrl, stylesheetUrl }));
  });

  app.get('/connect/oauth2/authorize/confirm', async (request, reply) => {
    const query = request.query as Query;
    const corp = query.appid ? state.corpById(query.appid) : undefined;
    const member = query.userid ? state.staffById(query.userid) : undefined;
    if (!corp || !member || !query.redirect_uri) {
      return errorPage(reply, 400, { errcode: WecomErr.INVALID_CREDENTIAL.errcode, errmsg: 'unknown corp, staff or redirect' });
    }
    const refused = refusalOf(request, corp.corpId, query.redirect_uri, member.userid);
    if (refused) return errorPage(reply, refused.status, refused);
    const code = state.issueCode(corp.corpId, query.agentid ?? '', member.userid, query.redirect_uri);
    const target = new URL(query.redirect_uri);
    target.searchParams.set('code', code);
    target.searchParams.set('state', query.state ?? '');
    // The member who confirmed is the one using the WeCom client here: its JS-SDK calls act as them (js-bridge.ts).
    void reply.header(
      'set-cookie',
      `${CLIENT_SESSION_COOKIE}=${state.clientSession(corp.corpId, member.userid)}; Path=${app.prefix || '/'}; HttpOnly; SameSite=Lax`,
    );
    return reply.redirect(target.toString(), 302);
  });

  app.get('/cgi-bin/gettoken', async (request, reply) => {
    const query = request.query as Query;
    state.stats.gettoken += 1;
    if (!query.corpid) return fail(reply, WecomErr.MISSING_CORPID);
    if (!query.corpsecret) return fail(reply, WecomErr.MISSING_SECRET);
    const corp = state.corpById(query.corpid);
    if (!corp) return fail(reply, WecomErr.INVALID_CORPID);
    const agent = state.agentBySecret(corp, query.corpsecret);
    if (!agent) return fail(reply, WecomErr.INVALID_CREDENTIAL);
    return { ...WecomErr.OK, ...state.issueAccessToken(corp.corpId, agent.agentId) };
  });

  app.get(
    '/cgi-bin/auth/getuserinfo',
    withToken('getuserinfo', ({ request, reply, query, token }) => {
      if (!query.code) return fail(reply, WecomErr.MISSING_CODE);
      const issued = state.redeemCode(query.code, token.corpId);
      if (!issued) return fail(reply, WecomErr.INVALID_CODE);
      // WeCom checks the code's redirect against the trusted domain of the app whose token exchanges it.
      const trustedDomain = state.policies.of(token.corpId, token.agentId).trustedDomain;
      if (trustedDomain !== null && issued.redirectDomain !== trustedDomain.toLowerCase()) {
        return reply.send(wecomError(50001, 'redirect_uri unauthorized', request.ip));
      }
      // user_ticket (for getuserdetail) only for members in the app's visible range.
      const visible = state.policies.isVisible(token.corpId, token.agentId, issued.userid);
      return { ...WecomErr.OK, userid: issued.userid, ...(visible ? state.issueUserTicket(token.corpId, issued.userid) : {}) };
    }),
  );

  app.post(
    '/cgi-bin/auth/getuserdetail',
    withToken('getuserdetail', ({ request, reply, token }) => {
      const body = (request.body ?? {}) as { user_ticket?: unknown };
      const ticket = typeof body.user_ticket === 'string' ? state.redeemUserTicket(body.user_ticket, token.corpId) : undefined;
      const member = ticket ? state.staffById(ticket.userid) : undefined;
      if (!member) return fail(reply, WecomErr.INVALID_USER_TICKET);
      return {
        ...WecomErr.OK,
        userid: member.userid,
        gender: member.gender,
        avatar: '',
        qr_code: '',
        mobile: member.mobile,
        email: member.email,
        biz_mail: member.email,
        address: '',
      };
    }),
  );

  app.get(
    '/cgi-bin/get_jsapi_ticket',
    withToken('jsapiTicket', ({ token }) => ({ ...WecomErr.OK, ...state.issueTicket('jsapi', token.corpId, token.agentId) })),
  );

  app.get(
    '/cgi-bin/ticket/get',
    withToken('agentTicket', ({ reply, query, token }) => {
      if (query.type !== 'agent_config') return fail(reply, WecomErr.INVALID_TICKET_TYPE);
      return { ...WecomErr.OK, ...state.issueTicket('agent', token.corpId, token.agentId) };
    }),
  );

  app.get(
    '/cgi-bin/externalcontact/get',
    withToken('externalContactGet', ({ reply, query, token }) => {
      const contact = state.externalContacts.find((entry) => entry.externalUserId === query.external_userid);
      if (!contact) return fail(reply, WecomErr.INVALID_EXTERNAL_USERID);
      // 获取客户详情 (92114): followers inside the app's visible range only, paged by cursor / next_cursor.
      const followers = contact.followedBy
        .map((userid, index) => ({ userid, index }))
        .filter(({ userid }) => state.policies.isVisible(token.corpId, token.agentId, userid));
      if (followers.length === 0) return fail(reply, WecomErr.INVALID_EXTERNAL_USERID);
      const offset = query.cursor ? Number(Buffer.from(query.cursor, 'base64url').toString()) : 0;
      if (!Number.isInteger(offset) || offset < 0 || offset >= followers.length) return fail(reply, WecomErr.INVALID_PARAMETER);
      const page = followers.slice(offset, offset + state.policies.followUserPageSize);
      const next = offset + page.length;
      return {
        ...WecomErr.OK,
        external_contact: { external_userid: contact.externalUserId, name: contact.name, type: 1, avatar: '', gender: contact.gender },
        follow_user: page.map(({ userid, index }) => ({
          userid,
          remark: contact.name,
          description: '',
          createtime: 1_700_000_000 + index * 86_400,
          add_way: 1,
          oper_userid: userid,
        })),
        next_cursor: next < followers.length ? Buffer.from(String(next)).toString('base64url') : '',
      };
    }),
  );

  await registerJsBridgeRoutes(app, state);
  await registerContactCallbackRoutes(app, state);
  await registerMessageSendRoutes(app, state, withToken);

  app.get('/__emulator/stats', async () => state.stats);
  app.post('/__emulator/expire-access-tokens', async () => {
    state.expireAllAccessTokens();
    return { ok: true };
  });
  /** WeCom stops accepting the JS-SDK tickets issued so far (optionally of one corp / agent): signatures made with them fail. */
  app.post('/__emulator/invalidate-tickets', async (request) => {
    const body = (request.body ?? {}) as { corpId?: unknown; agentId?: unknown };
    const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);
    return { ok: true, invalidated: state.invalidateTickets(text(body.corpId), text(body.agentId)) };
  });
}
