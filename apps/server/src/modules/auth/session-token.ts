import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Derived from the binding cookie (ADRs 0012, 0058), so a resume hands back the browser's one session; neither
 * the token nor its stored hash reveals the cookie.
 */
export const sessionTokenOf = (bindingSecret: string) => createHmac('sha256', bindingSecret).update('broker-token').digest('base64url');

/** Only this digest is stored, so a copy of the database cannot sign anyone in. */
export const hashSessionToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** WeCom passes `state` back only if it is letters and digits. */
export const newSignInState = () => randomBytes(32).toString('hex');

/** The session keeps its SHA-256 (ADR 0012). */
export const newBindingSecret = () => randomBytes(32).toString('base64url');

/** In constant time (for secrets a caller presents). */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
