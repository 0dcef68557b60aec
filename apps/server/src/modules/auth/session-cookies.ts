import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CookieSerializeOptions } from '@fastify/cookie';
import { sameSecret } from './session-token';

/**
 * The sign-in cookie (the OAuth `state`, ten minutes) and the binding cookie (the session's secret), ADRs 0011
 * and 0012: HttpOnly, this host only. Over HTTPS `Secure` with the `__Host-` prefix, so a neighbouring
 * subdomain cannot plant one; plain HTTP (127.0.0.1) would refuse the prefix.
 */
export type SignInCookie = 'signIn' | 'binding';

const BASE_NAMES: Record<SignInCookie, string> = { signIn: 'broker_signin', binding: 'broker_binding' };

/** The sign-in cookie rides the cross-site return from WeCom, hence Lax. */
const SAME_SITE: Record<SignInCookie, 'lax' | 'strict'> = { signIn: 'lax', binding: 'strict' };

/** A WeCom code lives five minutes, and the user may pause on WeCom's consent page. */
export const SIGN_IN_COOKIE_SECONDS = 600;

export const cookieName = (cookie: SignInCookie, secure: boolean) => (secure ? `__Host-${BASE_NAMES[cookie]}` : BASE_NAMES[cookie]);

export function cookieOptions(cookie: SignInCookie, secure: boolean, maxAgeSeconds: number): CookieSerializeOptions {
  return { httpOnly: true, secure, sameSite: SAME_SITE[cookie], path: '/', maxAge: maxAgeSeconds };
}

/** Directly, or through a proxy trusted by TRUST_PROXY. */
const isSecure = (request: FastifyRequest) => request.protocol === 'https';

/** Longer than any value we set: forged, and not hashed or compared. */
const MAX_COOKIE_LENGTH = 256;

/** Null when absent, empty or over-long; only the name for this request's scheme counts. */
export function readCookie(request: FastifyRequest, cookie: SignInCookie): string | null {
  const value = request.cookies[cookieName(cookie, isSecure(request))];
  return typeof value === 'string' && value !== '' && value.length <= MAX_COOKIE_LENGTH ? value : null;
}

export function setCookie(request: FastifyRequest, reply: FastifyReply, cookie: SignInCookie, value: string, maxAgeSeconds: number) {
  const secure = isSecure(request);
  void reply.setCookie(cookieName(cookie, secure), value, cookieOptions(cookie, secure, maxAgeSeconds));
}

export function clearCookie(request: FastifyRequest, reply: FastifyReply, cookie: SignInCookie) {
  const secure = isSecure(request);
  void reply.setCookie(cookieName(cookie, secure), '', { ...cookieOptions(cookie, secure, 0), expires: new Date(0) });
}

/** Any other return from WeCom (`?state=`) can only fail (080004, ADR 0011). */
export function carriesOwnSignInState(request: FastifyRequest): boolean {
  const cookie = readCookie(request, 'signIn');
  const { state } = request.query as { state?: unknown };
  return cookie !== null && typeof state === 'string' && sameSecret(cookie, state);
}
