import type { FastifyInstance } from 'fastify';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sendNotFound } from '../../plugins/error-handler.plugin';

/**
 * WeCom verifies a trusted domain by fetching `/WW_verify_<token>.txt`; read from `dir` at request time, so an
 * admin adds it without a restart. Only that pattern is reachable (docs/deployment.md, "Real WeCom").
 */
export async function wecomDomainVerificationRoutes(app: FastifyInstance, options: { dir: string }) {
  app.get('/WW_verify_:token(^[A-Za-z0-9]{1,64}).txt', { schema: { hide: true } }, async (request, reply) => {
    const { token } = request.params as { token: string };
    let content: Buffer;
    try {
      content = await readFile(join(options.dir, `WW_verify_${token}.txt`));
    } catch {
      return sendNotFound(request, reply);
    }
    return reply.type('text/plain; charset=utf-8').header('cache-control', 'no-cache').send(content);
  });
}
