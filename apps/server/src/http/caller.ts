import type { FastifyRequest } from 'fastify';
import type { Corp } from '../corps';

/** Set on every authenticated request. */
export interface Caller {
  sessionId: number;
  staffId: number;
  staffName: string;
  wecomUserId: string;
  corp: Corp;
}

/** Repositories limit every query to it, so a check forgotten in a service still leaks no other manager's client. */
export interface StaffScope {
  corpId: number;
  staffId: number;
}

export const scopeOf = (caller: Caller): StaffScope => ({ corpId: caller.corp.id, staffId: caller.staffId });

// modules/auth (auth.plugin.ts) decides who the caller is.
declare module 'fastify' {
  interface FastifyInstance {
    authenticate: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    caller: Caller | null;
  }
}

/** Throws if the route forgot `auth: true`. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('callerOf used on a route without authentication');
  return request.caller;
}
