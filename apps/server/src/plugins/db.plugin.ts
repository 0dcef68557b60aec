import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../db/client';

declare module 'fastify' {
  interface FastifyInstance {
    database: DatabaseHandle;
  }
}

export interface DbPluginOptions {
  handle: DatabaseHandle;
  /** False when a test shares one handle. */
  closeOnShutdown: boolean;
}

async function dbPlugin(app: FastifyInstance, options: DbPluginOptions) {
  app.decorate('database', options.handle);
  // One line per standby state change (ADR 0052), never the password.
  const stopWatching = options.handle.reads?.watch(({ name, from, state, lagMs, reason }) => {
    const line = { standby: name, from: from ?? null, state, lagMs, ...(reason ? { reason } : {}) };
    if (state === 'up') app.log.info(line, `standby ${name}: up`);
    else app.log.warn(line, `standby ${name}: ${state}, reads go elsewhere`);
  });
  if (stopWatching) app.addHook('onClose', async () => void stopWatching());
  // While the primary's probe fails, standbys are measured against older positions, and dropped past the bound.
  const stopWatchingPrimary = options.handle.reads?.watchPrimary(({ answering, reason, failedLooks }) => {
    if (answering) app.log.info({ failedLooks }, 'standby monitor: the primary answers its probe again');
    else
      app.log.warn(
        { reason },
        'standby monitor: the primary does not answer its probe; standbys go unused once its last answer is older than DATABASE_READ_MAX_LAG_MS',
      );
  });
  if (stopWatchingPrimary) app.addHook('onClose', async () => void stopWatchingPrimary());
  if (options.closeOnShutdown) app.addHook('onClose', async () => options.handle.close());
}

export default fp(dbPlugin, { name: 'db' });
