import { describe, expect, it } from 'vitest';
import { ConfigError, loadEnv } from './env';
import { isLoopbackHost } from './wecom-mode-guard';

/**
 * Issue 17.3: the WeCom emulator signs anyone in as any staff member, so a server that could be
 * production must not get it by default. A fresh clone on loopback keeps its demo.
 */
describe('the emulator is never on by accident', () => {
  it('a fresh clone (loopback, no corps file) still defaults to the emulator', () => {
    expect(loadEnv({}).WECOM_MODE).toBe('emulator');
    expect(loadEnv({ HOST: 'localhost' }).WECOM_MODE).toBe('emulator');
    expect(loadEnv({ HOST: '::1', TRUST_PROXY: '1', NODE_ENV: 'development' }).WECOM_MODE).toBe('emulator');
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
    expect(loadEnv({ NODE_ENV: 'test', TRUST_PROXY: '1' }).WECOM_MODE).toBe('emulator');
    expect(loadEnv({ NODE_ENV: 'production', TRUST_PROXY: 'false' }).WECOM_MODE).toBe('emulator');
    expect(loadEnv({ NODE_ENV: 'production', TRUST_PROXY: '0' }).WECOM_MODE).toBe('emulator');
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
