import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

/**
 * The web app's CSP (e2e/security-headers.e2e.test.ts): scripts and styles from this origin only, no inline
 * or eval (@wecom/jssdk is bundled; antd-mobile styles through CSSOM, which CSP does not govern); the emulator's
 * pages get no exemption (ADR 0016); nothing frames the app (WeCom opens it top-level). Sentry's origin may receive
 * error reports.
 */
function contentSecurityPolicy(sentryDsn: string | undefined): string {
  const sentryOrigin = sentryDsn ? new URL(sentryDsn).origin : null;
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...(sentryOrigin ? [sentryOrigin] : [])],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}

/** One onSend hook, so other plugins' responses (@fastify/static included) carry them too. */
async function securityHeadersPlugin(app: FastifyInstance, options: { sentryDsn?: string | undefined }) {
  const policy = contentSecurityPolicy(options.sentryDsn);
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('content-security-policy', policy);
    reply.header('x-frame-options', 'DENY');
    reply.header('x-content-type-options', 'nosniff');
    // Page URLs carry customer ids and WeCom entry parameters.
    reply.header('referrer-policy', 'no-referrer');
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('cross-origin-resource-policy', 'same-origin');
    reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=(), usb=()');
    // HTTPS only: a local `npm start` must stay reachable over http://127.0.0.1.
    if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000');
    return payload;
  });
}

export default fp(securityHeadersPlugin, { name: 'security-headers' });
