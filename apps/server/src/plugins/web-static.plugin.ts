import fp from 'fastify-plugin';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';

declare module 'fastify' {
  interface FastifyInstance {
    /** False when it does not apply. */
    serveSpaIndex: (request: FastifyRequest, reply: FastifyReply) => boolean;
  }
}

/** In any case and behind any number of slashes (`//API/x`). */
const NOT_SPA = /^\/+(api|wecom|healthz|readyz)(\/|$)/i;

/** Hashed assets cached for a year, index.html never, SPA fallback. */
async function webStaticPlugin(app: FastifyInstance, options: { distDir: string | undefined }) {
  const distDir = options.distDir;
  const enabled = Boolean(distDir && existsSync(join(distDir, 'index.html')));
  if (enabled) {
    await app.register(fastifyStatic, {
      root: distDir!,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each file; @fastify/compress leaves them alone.
      preCompressed: true,
      setHeaders: (res, path) => {
        res.header('cache-control', /[\\/]assets[\\/]/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  } else {
    app.log.warn({ distDir }, 'web app not built: run `npm run build` to serve it');
  }
  app.decorate('serveSpaIndex', (request: FastifyRequest, reply: FastifyReply) => {
    if (!enabled || (request.method !== 'GET' && request.method !== 'HEAD')) return false;
    const path = request.url.split('?')[0] ?? '/';
    if (NOT_SPA.test(path) || /\.[a-z0-9]{2,5}$/i.test(path)) return false;
    void reply.header('cache-control', 'no-cache').sendFile('index.html');
    return true;
  });
}

export default fp(webStaticPlugin, { name: 'web-static' });
