import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: the opaque `broker-token` handed to the browser. */
export const newSessionToken = () => randomBytes(32).toString('base64url');

/** Only this digest is stored, so a copy of the database cannot sign anyone in. */
export const hashSessionToken = (token: string) => createHash('sha256').update(token).digest('hex');
