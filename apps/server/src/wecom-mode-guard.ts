import { BlockList, isIP } from 'node:net';
import type { Env } from './env';
import { trustsAProxy } from './http/trust-proxy';

/**
 * The emulator signs anyone in as anyone (ADR 0016): the default only where nobody else can reach it. A server
 * that looks like production (beyond loopback, a corps file, production behind a proxy) must set WECOM_MODE.
 */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');

/** 127.0.0.0/8, ::1, localhost. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (bare.toLowerCase() === 'localhost') return true;
  const family = isIP(bare);
  if (family === 0) return false;
  return LOOPBACK.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

/** With WECOM_MODE unset. */
export function emulatorByDefaultProblems(env: Pick<Env, 'NODE_ENV' | 'HOST' | 'CORPS_FILE' | 'TRUST_PROXY' | 'WECOM_MODE'>): string[] {
  if (env.WECOM_MODE !== undefined) return [];
  const reasons = [
    ...(isLoopbackHost(env.HOST) ? [] : [`HOST=${env.HOST} listens beyond loopback`]),
    ...(env.CORPS_FILE ? [`CORPS_FILE names real corps`] : []),
    ...(env.NODE_ENV === 'production' && trustsAProxy(env.TRUST_PROXY) ? ['NODE_ENV=production runs behind TRUST_PROXY'] : []),
  ];
  if (reasons.length === 0) return [];
  return [
    `WECOM_MODE="": must be set explicitly (real or emulator) because ${reasons.join(', and ')}; ` +
      'the default WeCom emulator lets anyone sign in as any staff member',
  ];
}

/** At start and in /readyz details. */
export const IMPLIED_EMULATOR_NOTICE =
  'a development set-up: WECOM_MODE is unset, so the WeCom emulator is on and answers only requests made on this machine, ' +
  'directly (none through a proxy); set WECOM_MODE=real to deploy, or WECOM_MODE=emulator to show the demo beyond this machine';

/** RFC 7239, X-Forwarded-*, RFC 9110 Via, nginx's X-Real-IP. */
const PROXY_HEADER = /^(forwarded|via|x-forwarded-.+|x-real-ip)$/;

/**
 * A proxy, another machine, or a host beyond loopback (a TCP forwarder, a rebound DNS name); docs/deployment.md's
 * nginx forwards `Host: 127.0.0.1:3000` from a loopback peer, so only its headers betray it (ADR 0016).
 */
export function impliedEmulatorRefusal(request: { headers: Record<string, unknown>; peer: string | undefined }): string | null {
  const proxied = Object.keys(request.headers).find((name) => PROXY_HEADER.test(name));
  if (proxied) return `the request came through a proxy (${proxied})`;
  if (!request.peer || !isLoopbackHost(request.peer)) return `the request came from ${request.peer ?? 'an unknown address'}`;
  const host = typeof request.headers.host === 'string' ? request.headers.host.replace(/:\d*$/, '') : '';
  if (!isLoopbackHost(host)) return `the request names host "${host.slice(0, 100)}"`;
  return null;
}
