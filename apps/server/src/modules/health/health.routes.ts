import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { pingDatabase } from '../../db/client';
import { bookIndexCounters } from '../customer-search';

export interface HealthRoutesOptions {
  /** HEALTH_DETAIL_TOKEN: what monitoring presents to see /readyz's details (ADR 0054); unset, nobody sees them. */
  detailToken?: string | undefined;
  /** Shown with the details when this server is a development set-up (the WeCom emulator implied, ADR 0016). */
  development?: string | undefined;
}

/**
 * Who is asking /readyz, from its Authorization header (untrusted: this is the one place that reads it):
 * `status` — no credential (a load balancer): ready or not, nothing else; `detail` — the operator's
 * bearer token; `refused` — any other credential, or one when no token is configured, so a monitor
 * with a wrong or stale token fails loudly instead of silently losing its figures. The digests are
 * compared, in constant time, so neither the token's bytes nor its length show in the timing.
 */
export function readinessAudience(authorization: string | undefined, detailToken: string | undefined): 'status' | 'detail' | 'refused' {
  if (authorization === undefined) return 'status';
  const presented = /^Bearer ([\x21-\x7e]+)$/.exec(authorization)?.[1];
  if (presented === undefined || detailToken === undefined) return 'refused';
  const digest = (token: string) => createHash('sha256').update(token).digest();
  return timingSafeEqual(digest(presented), digest(detailToken)) ? 'detail' : 'refused';
}

/**
 * Liveness (the process answers) and readiness (the database answers). Outside the envelope on purpose:
 * load balancers read the status. WeCom is reported beside the database but never makes a replica
 * unready: every replica shares one WeCom, so taking replicas out of rotation would not bring it back,
 * and it would also stop the client lists, MOT work and edits that need no WeCom call (ADR 0017).
 * The details (standbys and their lag, WeCom apps' problems, cache counters) go only to a caller with
 * HEALTH_DETAIL_TOKEN: to anyone else they would map the deployment and time its weak moments (ADR 0054).
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
      // The count cache's use since start: the benchmark reads it around each cell (hit rate).
      return {
        status: 'ready',
        ...(options.development ? { development: options.development } : {}),
        database: app.database.kind,
        // Never makes the replica unready: reads fall back to the primary (ADR 0052). Numbered in
        // DATABASE_READ_URL's order, not named: host names stay in the logs.
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
