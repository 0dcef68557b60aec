import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { pingDatabase } from '../../db/client';
import { bookIndexCounters } from '../customer-search';

export interface HealthRoutesOptions {
  /** HEALTH_DETAIL_TOKEN (ADR 0054); unset, nobody sees the details. */
  detailToken?: string | undefined;
  /** A development set-up (the WeCom emulator implied, ADR 0016). */
  development?: string | undefined;
}

/**
 * The one reader of /readyz's Authorization header: none → `status`; the token → `detail`; anything else →
 * `refused`, so a monitor with a stale token fails loudly. Digests compared in constant time.
 */
export function readinessAudience(authorization: string | undefined, detailToken: string | undefined): 'status' | 'detail' | 'refused' {
  if (authorization === undefined) return 'status';
  const presented = /^Bearer ([\x21-\x7e]+)$/.exec(authorization)?.[1];
  if (presented === undefined || detailToken === undefined) return 'refused';
  const digest = (token: string) => createHash('sha256').update(token).digest();
  return timingSafeEqual(digest(presented), digest(detailToken)) ? 'detail' : 'refused';
}

/**
 * Outside the envelope: load balancers read the status. WeCom never makes a replica unready: replicas share one
 * WeCom, and lists and edits need none (ADR 0017). Details only with HEALTH_DETAIL_TOKEN: they would map the
 * deployment (ADR 0054).
 */
export async function healthRoutes(app: FastifyInstance, options: HealthRoutesOptions) {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    const audience = readinessAudience(request.headers.authorization, options.detailToken);
    if (audience === 'refused') {
      return reply.code(401).send({
        status: 'unauthorized',
        msg: options.detailToken
          ? "authorization: not this server's HEALTH_DETAIL_TOKEN (send none for the status alone)"
          : 'authorization: this server has no HEALTH_DETAIL_TOKEN, so it shows no details (send none for the status alone)',
      });
    }
    try {
      await pingDatabase(app.database);
      if (audience === 'status') return { status: 'ready' };
      return {
        status: 'ready',
        ...(options.development ? { development: options.development } : {}),
        database: app.database.kind,
        // Numbered in DATABASE_READ_URL's order, not named: host names stay in the logs.
        ...(app.database.reads
          ? {
              standbys: app.database.reads
                .standbys()
                .map(({ state, lagMs, reads }, index) => ({ standby: index + 1, state, lagMs, reads })),
            }
          : {}),
        wecom: app.wecomHealth.summary(),
        bookIndex: { ...bookIndexCounters },
      };
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed');
      return reply
        .code(503)
        .send(
          audience === 'status'
            ? { status: 'unavailable' }
            : { status: 'unavailable', database: app.database.kind, wecom: app.wecomHealth.summary() },
        );
    }
  });
}
