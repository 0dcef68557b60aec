import { describe, expect, it } from 'vitest';
import { ConfigError, loadEnv } from './env';
import { impliedEmulatorRefusal, isLoopbackHost } from './wecom-mode-guard';

/**
 * Issue 17.3: the WeCom emulator signs anyone in as any staff member, so a server that could be
 * production must not get it by default. A fresh clone on loopback keeps its demo.
 */
describe('the emulator is never on by accident', () => {
  it('a fresh clone (loopback, no corps file) still starts, with the emulator implied (WECOM_MODE unset)', () => {
    expect(loadEnv({}).WECOM_MODE).toBeUndefined();
    expect(loadEnv({ HOST: 'localhost' }).WECOM_MODE).toBeUndefined();
    expect(loadEnv({ HOST: '::1', TRUST_PROXY: '1', NODE_ENV: 'development' }).WECOM_MODE).toBeUndefined();
  });

  it.each([
    ['listening beyond loopback', { HOST: '0.0.0.0' }, /HOST=0\.0\.0\.0/],
    ['listening on all IPv6 interfaces', { HOST: '::' }, /HOST=::/],
    ['listening on a LAN address', { HOST: '10.1.2.3' }, /HOST=10\.1\.2\.3/],
    ['with a corps file', { CORPS_FILE: '/etc/broker/corps.json' }, /CORPS_FILE/],
    ['in production behind a proxy', { NODE_ENV: 'production', TRUST_PROXY: '1' }, /TRUST_PROXY/],
    ['in production behind listed proxies', { NODE_ENV: 'production', TRUST_PROXY: '10.0.0.0/8,fd00::/8' }, /TRUST_PROXY/],
  ])('refuses to start %s unless WECOM_MODE is set, naming the variable', (_what, settings, reason) => {
    expect(() => loadEnv(settings)).toThrow(ConfigError);
    expect(() => loadEnv(settings)).toThrow(/WECOM_MODE="": must be set explicitly \(real or emulator\)/);
    expect(() => loadEnv(settings)).toThrow(reason);
  });

  it('starts when the mode is chosen explicitly, either way', () => {
    expect(loadEnv({ HOST: '0.0.0.0', WECOM_MODE: 'real' }).WECOM_MODE).toBe('real');
    expect(loadEnv({ HOST: '0.0.0.0', WECOM_MODE: 'emulator' }).WECOM_MODE).toBe('emulator');
    expect(loadEnv({ CORPS_FILE: 'corps.json', NODE_ENV: 'production', TRUST_PROXY: '1', WECOM_MODE: 'real' }).WECOM_MODE).toBe('real');
  });

  it('a proxy in development or tests is not production', () => {
    expect(() => loadEnv({ NODE_ENV: 'test', TRUST_PROXY: '1' })).not.toThrow();
    expect(() => loadEnv({ NODE_ENV: 'production', TRUST_PROXY: 'false' })).not.toThrow();
    expect(() => loadEnv({ NODE_ENV: 'production', TRUST_PROXY: '0' })).not.toThrow();
  });

  // Issue 36.1: the implied emulator answers this machine only, directly (the process test puts a real proxy in front).
  const direct = { headers: { host: '127.0.0.1:3000' }, peer: '127.0.0.1' };
  it.each([
    ['a request made on this machine', direct, null],
    ['localhost with a port', { ...direct, headers: { host: 'localhost:5173' } }, null],
    ['IPv6 loopback', { headers: { host: '[::1]:3000' }, peer: '::ffff:127.0.0.1' }, null],
    ['X-Forwarded-For', { ...direct, headers: { ...direct.headers, 'x-forwarded-for': '203.0.113.7' } }, /proxy \(x-forwarded-for\)/],
    ['X-Forwarded-Proto alone', { ...direct, headers: { ...direct.headers, 'x-forwarded-proto': 'https' } }, /x-forwarded-proto/],
    ['Forwarded', { ...direct, headers: { ...direct.headers, forwarded: 'for=203.0.113.7' } }, /forwarded/],
    ['Via', { ...direct, headers: { ...direct.headers, via: '1.1 lb' } }, /via/],
    ['X-Real-IP', { ...direct, headers: { ...direct.headers, 'x-real-ip': '203.0.113.7' } }, /x-real-ip/],
    ['another machine', { ...direct, peer: '192.168.1.20' }, /from 192\.168\.1\.20/],
    ['a closed connection', { ...direct, peer: undefined }, /unknown address/],
    ['a public Host', { ...direct, headers: { host: 'broker.example.test' } }, /host "broker\.example\.test"/],
    ['a Host that only starts like localhost', { ...direct, headers: { host: 'localhost.evil.example:3000' } }, /host/],
    ['no Host', { ...direct, headers: {} }, /host ""/],
  ])('%s: %s', (_what, request, refusal) => {
    const answer = impliedEmulatorRefusal(request);
    if (refusal === null) expect(answer).toBeNull();
    else expect(answer).toMatch(refusal);
  });

  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['localhost', true],
    ['LOCALHOST', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.20', false],
    ['fe80::1', false],
    ['broker.internal', false],
    ['localhost.evil.example', false],
  ])('%s is loopback: %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});
