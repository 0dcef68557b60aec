import type { FastifyRequest } from 'fastify';
import type { Corp } from '../corps';

/** Who is calling: set on every authenticated request. */
export interface Caller {
  sessionId: number;
  staffId: number;
  staffName: string;
  wecomUserId: string;
  corp: Corp;
}

// The route layer needs only these two names; modules/auth (auth.plugin.ts) decides who the caller is.
declare module 'fastify' {
  interface FastifyInstance {
    authenticate: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    caller: Caller | null;
  }
}

/** The caller of an authenticated route; throws if the route forgot `auth: true`. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('callerOf used on a route without authentication');
  return request.caller;
}
