import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The opaque `broker-token` of the session bound to `bindingSecret` (ADRs 0012, 0058): 256 bits derived from the
 * browser's binding cookie, so that a resume hands back the browser's one session instead of minting
 * another. The cookie is fresh at every sign-in; neither the token nor its stored hash reveals it.
 */
export const sessionTokenOf = (bindingSecret: string) => createHmac('sha256', bindingSecret).update('broker-token').digest('base64url');

/** Only this digest is stored, so a copy of the database cannot sign anyone in. */
export const hashSessionToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** 256 random bits as 64 hex digits: WeCom passes `state` back only if it is letters and digits. */
export const newSignInState = () => randomBytes(32).toString('hex');

/** 256 random bits held by the browser's binding cookie; the session keeps its SHA-256 (ADR 0012). */
export const newBindingSecret = () => randomBytes(32).toString('base64url');

/** Equal strings, compared in constant time (for secrets a caller presents). */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
