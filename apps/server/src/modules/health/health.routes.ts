import type { FastifyInstance } from 'fastify';
import { pingDatabase } from '../../db/client';

/** Liveness (the process answers) and readiness (the database answers). Outside the envelope on purpose: load balancers read the status. */
export async function healthRoutes(app: FastifyInstance) {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    try {
      await pingDatabase(app.database);
      return { status: 'ready', database: app.database.kind };
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed');
      return reply.code(503).send({ status: 'unavailable', database: app.database.kind });
    }
  });
}
