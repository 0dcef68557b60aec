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

/**
 * The caller's reach in the data: their own customers in their corp. Repositories limit every
 * query to it, so a forgotten check in a service still cannot leak another manager's client.
 */
export interface StaffScope {
  corpId: number;
  staffId: number;
}

export const scopeOf = (caller: Caller): StaffScope => ({ corpId: caller.corp.id, staffId: caller.staffId });

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
