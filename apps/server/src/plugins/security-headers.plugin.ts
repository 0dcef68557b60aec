import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

export interface SecurityHeadersOptions {
  /** The Sentry DSN the web app was built with: its origin may receive error reports. */
  sentryDsn?: string | undefined;
}

/**
 * The Content-Security-Policy the web app runs under (proved by e2e/security-headers.e2e.test.ts).
 * - script-src 'self': the app's bundles and, in emulator mode, /wecom/jsbridge.js, both from this
 *   origin. @wecom/jssdk is bundled and talks to WeCom's native WeixinJSBridge, so real mode needs no
 *   WeCom script origin. No 'unsafe-inline', no 'unsafe-eval'.
 * - The emulator's own pages (authorise, sidebar opener) come from this origin too, so they get no
 *   exemption: they carry no inline script or style (ADR 0016).
 * - style-src 'self': antd-mobile's dynamic styles are set through React's style prop (CSSOM), which
 *   CSP does not govern, and the build emits no inline <style>; so no 'unsafe-inline' either.
 * - frame-ancestors 'none': WeCom opens the app as a top-level page on phone and desktop; nothing frames it.
 */
export function contentSecurityPolicy(options: Pick<SecurityHeadersOptions, 'sentryDsn'>): string {
  const sentryOrigin = options.sentryDsn ? new URL(options.sentryDsn).origin : null;
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

/**
 * Security headers on every response (API, static files, SPA index, errors), from one onSend hook
 * so that responses of other plugins — @fastify/static included — carry them too.
 */
async function securityHeadersPlugin(app: FastifyInstance, options: SecurityHeadersOptions) {
  const policy = contentSecurityPolicy(options);
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('content-security-policy', policy);
    reply.header('x-frame-options', 'DENY');
    reply.header('x-content-type-options', 'nosniff');
    // Page URLs carry customer ids and WeCom entry parameters: never hand them to another origin.
    reply.header('referrer-policy', 'no-referrer');
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('cross-origin-resource-policy', 'same-origin');
    reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=(), usb=()');
    // HSTS only on HTTPS (directly, or behind a TLS-terminating proxy with TRUST_PROXY): over plain
    // HTTP browsers ignore it, and a local `npm start` must stay reachable over http://127.0.0.1.
    if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000');
    return payload;
  });
}

export default fp(securityHeadersPlugin, { name: 'security-headers' });
