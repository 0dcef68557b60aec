import { BlockList, isIP } from 'node:net';
import { trustsAProxy, type TrustProxy } from './http/trust-proxy';

/**
 * Issue 17.3 and ADR 0016: the WeCom emulator signs anyone in as any staff member, so it may be the
 * default only where nobody else can reach it. A server that looks like production — it listens
 * beyond loopback, it has a corps file, or it runs in production behind a proxy — must be told
 * WECOM_MODE explicitly, either way.
 */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');

/** True for addresses only this machine can reach (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (bare.toLowerCase() === 'localhost') return true;
  const family = isIP(bare);
  if (family === 0) return false;
  return LOOPBACK.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

interface GuardedSettings {
  NODE_ENV: string;
  HOST: string;
  CORPS_FILE?: string | undefined;
  TRUST_PROXY: TrustProxy;
}

/**
 * The reasons this configuration looks like production, or none. `explicit` holds the variables
 * the operator actually set (defaults do not count).
 */
export function emulatorByDefaultProblems(env: GuardedSettings, explicit: ReadonlySet<string>): string[] {
  if (explicit.has('WECOM_MODE')) return [];
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
