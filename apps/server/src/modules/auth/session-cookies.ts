import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CookieSerializeOptions } from '@fastify/cookie';
import { sameSecret } from './session-token';

/**
 * The two cookies of sign-in (ADRs 0011, 0012). Both HttpOnly, so no script — ours or injected —
 * can read them, and both only for this host:
 *
 * - the sign-in cookie holds the OAuth `state` of the sign-in this browser started, for ten minutes;
 * - the binding cookie holds the secret a session is bound to, for the session's lifetime.
 *
 * Over HTTPS they are `Secure` and carry the `__Host-` prefix, which the browser honours only for a
 * Secure, Path=/ cookie set by this very host: a neighbouring subdomain cannot plant one
 * (cookie tossing). Over plain HTTP (`npm start` on 127.0.0.1) the prefix would be refused, so
 * the plain names are used there.
 */
export type SignInCookie = 'signIn' | 'binding';

const BASE_NAMES: Record<SignInCookie, string> = { signIn: 'broker_signin', binding: 'broker_binding' };

/** The sign-in cookie rides the return from WeCom's page (a cross-site navigation), hence Lax; the binding is Strict. */
const SAME_SITE: Record<SignInCookie, 'lax' | 'strict'> = { signIn: 'lax', binding: 'strict' };

/** Ten minutes: a WeCom code lives five, and the user may pause on WeCom's consent page. */
export const SIGN_IN_COOKIE_SECONDS = 600;

export const cookieName = (cookie: SignInCookie, secure: boolean) => (secure ? `__Host-${BASE_NAMES[cookie]}` : BASE_NAMES[cookie]);

export function cookieOptions(cookie: SignInCookie, secure: boolean, maxAgeSeconds: number): CookieSerializeOptions {
  return { httpOnly: true, secure, sameSite: SAME_SITE[cookie], path: '/', maxAge: maxAgeSeconds };
}

/** Whether the browser reached us over HTTPS (directly, or through a proxy trusted by TRUST_PROXY). */
const isSecure = (request: FastifyRequest) => request.protocol === 'https';

/** Longer than any value we set (64 characters): such a cookie is forged, and is not hashed or compared. */
const MAX_COOKIE_LENGTH = 256;

/** The cookie's value, or null (absent, empty or over-long). Only the name for this request's scheme counts. */
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

/**
 * Whether a return from WeCom (`?state=`) carries this browser's own sign-in state, in its cookie: the
 * sign-in this browser started. Any other return can only fail (080004, ADR 0011).
 */
export function carriesOwnSignInState(request: FastifyRequest): boolean {
  const cookie = readCookie(request, 'signIn');
  const { state } = request.query as { state?: unknown };
  return cookie !== null && typeof state === 'string' && sameSecret(cookie, state);
}
