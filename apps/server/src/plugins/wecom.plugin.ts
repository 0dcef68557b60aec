import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { createCredentialStore } from '../wecom/credential-store';
import { createWecomClient, type WecomClient } from '../wecom/wecom-client';

declare module 'fastify' {
  interface FastifyInstance {
    wecom: WecomClient;
  }
}

async function wecomPlugin(app: FastifyInstance, options: { apiBase: () => string }) {
  app.decorate('wecom', createWecomClient({ apiBase: options.apiBase, credentials: createCredentialStore(app.database.db) }));
}

export default fp(wecomPlugin, { name: 'wecom', dependencies: ['db'] });
