import type { FastifyInstance } from 'fastify';
import { pingDatabase } from '../../db/client';
import { bookIndexCounters, bookResultCacheCounters } from '../customer-search';

/**
 * Liveness (the process answers) and readiness (the database answers). Outside the envelope on purpose:
 * load balancers read the status. WeCom is reported beside the database but never makes a replica
 * unready: every replica shares one WeCom, so taking replicas out of rotation would not bring it back,
 * and it would also stop the client lists, MOT work and edits that need no WeCom call (ADR 0017).
 */
export async function healthRoutes(app: FastifyInstance) {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    try {
      await pingDatabase(app.database);
      // The count cache's use since start: the benchmark reads it around each cell (hit rate).
      return {
        status: 'ready',
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
        bookResultCache: { ...bookResultCacheCounters },
        bookIndex: { ...bookIndexCounters },
      };
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed');
      return reply.code(503).send({ status: 'unavailable', database: app.database.kind, wecom: app.wecomHealth.summary() });
    }
  });
}
