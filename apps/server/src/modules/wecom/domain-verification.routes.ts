import type { FastifyInstance } from 'fastify';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sendNotFound } from '../../plugins/error-handler.plugin';

/**
 * WeCom verifies an app's trusted domain (可信域名) by fetching `/WW_verify_<token>.txt` from it and
 * comparing the body with the file it gave the admin. Served from `dir`, read at request time, so an
 * admin can add the file without a rebuild or restart. The token pattern is the only file name that
 * can be asked for: nothing else in the folder, and no path, is reachable (issue 19.7, README).
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
