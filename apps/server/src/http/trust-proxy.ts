import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * Nobody, the nearest `n` hops, or listed addresses; never everyone: a client naming its own address dodges
 * every per-address limit (ADR 0015).
 */
export type TrustProxy = false | number | readonly string[];

export const TRUST_PROXY_FORMS =
  'false (trust no proxy), a hop count such as 1 (the server is reachable only through that many proxies), ' +
  'or a comma-separated list of proxy addresses or CIDRs such as 10.0.0.5,10.1.0.0/16,fd00::/8';

const MAX_HOPS = 16;
const OFF = new Set(['', 'false', '0', 'no', 'off']);

/** `10.0.0.5`, `::1`, `10.0.0.0/8`, `fd00::/8`, or null. */
function proxyEntry(entry: string): string | null {
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return null;
  if (prefix === undefined) return address;
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > (family === 4 ? 32 : 128)) return null;
  return `${address}/${Number(prefix)}`;
}

export const trustProxySchema = z.string().transform((raw, context): TrustProxy => {
  const value = raw.trim().toLowerCase();
  if (OFF.has(value)) return false;
  const refuse = (why: string) => {
    context.issues.push({ code: 'custom', input: raw, message: `${why}; must be ${TRUST_PROXY_FORMS}` });
    return z.NEVER;
  };
  if (['true', 'yes', 'on', '*', 'all'].includes(value)) {
    return refuse('trusting every sender would let any client forge X-Forwarded-For');
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops <= MAX_HOPS ? hops : refuse(`a hop count must be 1 to ${MAX_HOPS}`);
  }
  const entries = value.split(',').map((entry) => entry.trim());
  const parsed = entries.map(proxyEntry);
  const bad = entries.filter((_, index) => parsed[index] === null);
  if (bad.length > 0) return refuse(`${bad.map((entry) => JSON.stringify(entry.slice(0, 64))).join(', ')} is not an IP address or CIDR`);
  return parsed as string[];
});

/** Fastify 5.12 reads a bare hop count as trusting nobody: it becomes proxy-addr's nearest-n-hops function. */
export function fastifyTrustProxy(trust: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (trust === false) return false;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return [...trust];
}

export function trustsAProxy(trust: TrustProxy): boolean {
  return trust !== false && (typeof trust === 'number' || trust.length > 0);
}
