import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ErrorCode, HEADER_CORP, HEADER_TOKEN } from '@broker/contract';
import type { Corp } from '../../corps';
import { ApiError } from '../../http/api-error';
import { createAuthRepository } from './auth.repository';
import { hashSessionToken, sameSecret } from './session-token';
import { readCookie } from './session-cookies';
import { SESSION_CHANGE_CHANNEL, SessionCache } from './session-cache';

const headerValue = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

export function requireCorp(app: FastifyInstance, request: FastifyRequest): Corp {
  const code = headerValue(request, HEADER_CORP);
  if (!code) throw ApiError.validation(`header ${HEADER_CORP}`, 'is required');
  const corp = app.corps.byCode(code);
  if (!corp) throw ApiError.validation(`header ${HEADER_CORP}`, `unknown corp "${code.slice(0, 32)}"`);
  return corp;
}

export interface AuthPluginOptions {
  /** Sessions ended by the database's notifications (ADR 0010); off, every request reads them. */
  sessionCache: boolean;
}

/** `app.authenticate`, the one session check of every business call; `implementArea` routes get it as `caller`. */
async function authPlugin(app: FastifyInstance, options: AuthPluginOptions) {
  const repository = createAuthRepository(app.database.db);
  const sessions = new SessionCache();
  if (options.sessionCache) {
    // One warning while the LISTEN cannot prove itself, not one per retry.
    let warned = false;
    const stopListening = await app.database.listen(SESSION_CHANGE_CHANNEL, {
      onNotify: (payload) => sessions.invalidate(payload),
      onLive: (live) => {
        sessions.setLive(live);
        if (live && warned) app.log.info('session cache: its LISTEN hears notifications again; sessions are cached');
        if (live) warned = false;
      },
      onUnproven: (problem) => {
        if (!warned) app.log.warn(`session cache off: ${problem}`);
        warned = true;
      },
    });
    app.addHook('onClose', async () => stopListening());
  }
  const findSession = async (tokenHash: string) => {
    const cached = sessions.get(tokenHash);
    if (cached) return cached;
    const ticket = sessions.ticket();
    const session = await repository.findSession(tokenHash);
    if (session) sessions.store(tokenHash, session, ticket);
    return session;
  };
  app.decorateRequest('caller', null);
  /**
   * At onRequest, so an unauthenticated caller learns nothing of a route's input rules. 080001: missing, unknown,
   * revoked or another corp's token, or without its browser's cookie (ADR 0012); 080000: expired.
   */
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const corp = requireCorp(app, request);
    const token = headerValue(request, HEADER_TOKEN);
    const invalid = () => new ApiError(ErrorCode.LOGIN_INVALID, `header ${HEADER_TOKEN}: is not a valid session; please sign in`);
    if (!token) throw new ApiError(ErrorCode.LOGIN_INVALID, `header ${HEADER_TOKEN}: is required; please sign in`);
    if (token.length > 256) throw invalid();
    // Before the lookup, so a token without its browser reveals nothing about the token.
    const binding = readCookie(request, 'binding');
    if (!binding) throw new ApiError(ErrorCode.LOGIN_INVALID, 'cookie: this browser holds no session; please sign in');
    const session = await findSession(hashSessionToken(token));
    if (!session || session.revoked || session.corpId !== corp.id || !session.staffActive) throw invalid();
    if (!session.bindingHash || !sameSecret(session.bindingHash, hashSessionToken(binding))) throw invalid();
    if (session.expiresAtMs <= Date.now()) {
      throw new ApiError(ErrorCode.LOGIN_EXPIRED, 'Your sign-in has expired; please sign in again');
    }
    request.caller = {
      sessionId: session.sessionId,
      staffId: session.staffId,
      staffName: session.staffName,
      wecomUserId: session.wecomUserId,
      corp,
    };
  });
}

export default fp(authPlugin, { name: 'auth', dependencies: ['db', 'corps', '@fastify/cookie'] });
