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
  /** Close the database when the app closes (false when a test shares one handle). */
  closeOnShutdown: boolean;
}

async function dbPlugin(app: FastifyInstance, options: DbPluginOptions) {
  app.decorate('database', options.handle);
  // One line per standby state change (ADR 0052), named by host, port and database, never the password.
  const stopWatching = options.handle.reads?.watch(({ name, from, state, lagMs, reason }) => {
    const line = { standby: name, from: from ?? null, state, lagMs, ...(reason ? { reason } : {}) };
    if (state === 'up') app.log.info(line, `standby ${name}: up`);
    else app.log.warn(line, `standby ${name}: ${state}, reads go elsewhere`);
  });
  if (stopWatching) app.addHook('onClose', async () => void stopWatching());
  if (options.closeOnShutdown) app.addHook('onClose', async () => options.handle.close());
}

export default fp(dbPlugin, { name: 'db' });
