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
  if (options.closeOnShutdown) app.addHook('onClose', async () => options.handle.close());
}

export default fp(dbPlugin, { name: 'db' });
