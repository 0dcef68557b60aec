import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadDatabaseTarget, loadEnv, seedsDemoData } from './env';

describe('configuration', () => {
  it('seeds demo clients with the emulator, and with real WeCom only when SEED_DEMO asks', () => {
    expect(seedsDemoData(loadEnv({}))).toBe(true);
    expect(seedsDemoData(loadEnv({ WECOM_MODE: 'emulator' }))).toBe(true);
    expect(seedsDemoData(loadEnv({ WECOM_MODE: 'emulator', SEED_DEMO: 'false' }))).toBe(false);
    expect(seedsDemoData(loadEnv({ WECOM_MODE: 'real', CORPS_FILE: 'corps.json' }))).toBe(false);
    expect(seedsDemoData(loadEnv({ WECOM_MODE: 'real', CORPS_FILE: 'corps.json', SEED_DEMO: 'true' }))).toBe(true);
  });

  it('has working defaults', () => {
    const env = loadEnv({});
    expect(env).toMatchObject({ PORT: 3000, HOST: '127.0.0.1' });
    expect(env.SEED_DEMO).toBeUndefined();
    // Unset: the emulator, implied (wecom-mode-guard.ts).
    expect(env.WECOM_MODE).toBeUndefined();
    expect(env.PGLITE_DIR).toBe(resolve(process.cwd(), 'data/pglite'));
    expect(env.DATABASE_URL).toBeUndefined();
    // Contact records lock a day after they are written; a browser test may make it seconds.
    expect(env.CONTACT_RECORD_LOCK_HOURS).toBe(24);
    expect(loadEnv({ CONTACT_RECORD_LOCK_HOURS: '0.001' }).CONTACT_RECORD_LOCK_HOURS).toBe(0.001);
  });

  it.each([
    ['PORT', 'abc', /PORT="abc": must be a number/],
    ['PORT', '70000', /PORT="70000": must be a port number/],
    ['DATABASE_URL', 'mysql://x', /DATABASE_URL="mysql:\/\/x": must be a postgres:\/\/ or postgresql:\/\/ URL/],
    ['WECOM_MODE', 'prod', /WECOM_MODE="prod": must be one of emulator, real/],
    ['SEED_DEMO', 'maybe', /SEED_DEMO="maybe": must be true or false/],
    ['CONTACT_RECORD_LOCK_HOURS', '0', /CONTACT_RECORD_LOCK_HOURS="0": must be a positive number of hours/],
    ['CONTACT_RECORD_LOCK_HOURS', '-2', /CONTACT_RECORD_LOCK_HOURS="-2": must be a positive number of hours/],
    ['CONTACT_RECORD_LOCK_HOURS', 'a day', /CONTACT_RECORD_LOCK_HOURS="a day": must be a number/],
    ['TOKEN_TTL_SECONDS', '5', /TOKEN_TTL_SECONDS="5": must be at least 60/],
    ['HTTP_KEEP_ALIVE_TIMEOUT_MS', '5', /HTTP_KEEP_ALIVE_TIMEOUT_MS="5": must be at least 100 \(milliseconds\)/],
    ['HTTP_KEEP_ALIVE_TIMEOUT_MS', 'soon', /HTTP_KEEP_ALIVE_TIMEOUT_MS="soon": must be a number/],
    ['DATABASE_POOL_MAX', '0', /DATABASE_POOL_MAX="0": /],
    ['MOT_PUSH_QUIET_HOURS', '9pm-8am', /MOT_PUSH_QUIET_HOURS="9pm-8am": must be HH:mm-HH:mm \(Hong Kong time\) or off/],
    // Removed settings (ADR 0059): one left in an environment file must not be silently ignored.
    ['MOT_PUSH_INTERVAL_MS', '0', /MOT_PUSH_INTERVAL_MS: no longer a setting, its value is fixed \(docs\/decisions\/0059/],
    ['SESSION_CACHE', 'false', /SESSION_CACHE: no longer a setting/],
    // Issue 17.7: "trust everyone" lets any client choose its own address (ADR 0015).
    [
      'TRUST_PROXY',
      'true',
      /TRUST_PROXY="true": trusting every sender would let any client forge X-Forwarded-For; must be false .*hop count.*CIDRs/,
    ],
    ['TRUST_PROXY', 'yes', /TRUST_PROXY="yes": trusting every sender/],
    ['TRUST_PROXY', '99', /TRUST_PROXY="99": a hop count must be 1 to 16/],
    ['TRUST_PROXY', '10.0.0.0/33', /TRUST_PROXY="10.0.0.0\/33": "10.0.0.0\/33" is not an IP address or CIDR/],
    ['TRUST_PROXY', '10.0.0.1,proxy.internal', /"proxy.internal" is not an IP address or CIDR/],
    ['TRUST_PROXY', 'fd00::/129', /"fd00::\/129" is not an IP address or CIDR/],
    ['DATABASE_READ_URL', 'mysql://standby', /DATABASE_READ_URL.0="mysql:\/\/standby": must be a postgres:\/\/ or postgresql:\/\/ URL/],
    ['DATABASE_READ_URL', ' , ', /DATABASE_READ_URL=" , ": must name at least one postgres:\/\/ URL/],
    ['DATABASE_READ_MAX_LAG_MS', '10', /DATABASE_READ_MAX_LAG_MS="10": must be at least 100 \(milliseconds\)/],
    ['DATABASE_READ_MAX_LAG_MS', 'soon', /DATABASE_READ_MAX_LAG_MS="soon": must be a number/],
    [
      'DATABASE_READ_MAX_LAG_MS',
      '60000',
      /DATABASE_READ_MAX_LAG_MS="60000": must be at most 30000 \(30 seconds\): .*reassigned client.*old manager/,
    ],
    ['DATABASE_DIRECT_URL', 'http://db', /DATABASE_DIRECT_URL="http:\/\/db": must be a postgres:\/\/ or postgresql:\/\/ URL/],
  ])('refuses %s=%s, naming the variable', (name, value, message) => {
    expect(() => loadEnv({ [name]: value })).toThrow(ConfigError);
    expect(() => loadEnv({ [name]: value })).toThrow(message);
  });

  it('a configuration error never quotes a secret: the health token by its length, a URL without its password', () => {
    const token = 'not-long-enough-but-secret';
    expect(() => loadEnv({ HEALTH_DETAIL_TOKEN: token })).toThrow(
      /HEALTH_DETAIL_TOKEN=\(hidden, 26 characters\): must be at least 32 characters/,
    );
    expect(() => loadEnv({ HEALTH_DETAIL_TOKEN: token })).not.toThrow(new RegExp(token));
    expect(() => loadEnv({ DATABASE_URL: 'mysql://app:pa55word@db/broker' })).toThrow(/DATABASE_URL="mysql:\/\/app:\*\*\*@db\/broker"/);
    expect(() => loadEnv({ DATABASE_READ_URL: 'postgres://a@s1/b, http://app:pa55word@s2/b' })).not.toThrow(/pa55word/);
    expect(() => loadEnv({ DATABASE_READ_URL: 'postgres://a@s1/b, http://app:pa55word@s2/b' })).toThrow(/app:\*\*\*@s2/);
    expect(() => loadDatabaseTarget({ databaseUrl: 'mysql://app:pa55word@db/broker' }, {})).toThrow(
      /--database-url="mysql:\/\/app:\*\*\*@db/,
    );
  });

  it('reads standbys, their bounds and a direct URL (ADR 0052); a read URL may be the primary itself', () => {
    const primary = 'postgres://app@pgbouncer:6432/broker';
    const env = loadEnv({
      DATABASE_URL: primary,
      DATABASE_READ_URL: `postgres://app@standby-a/broker , postgresql://app@standby-b:5433/broker,${primary}`,
      DATABASE_DIRECT_URL: 'postgres://app@primary:5432/broker',
    });
    expect(env).toMatchObject({
      DATABASE_READ_URL: ['postgres://app@standby-a/broker', 'postgresql://app@standby-b:5433/broker', primary],
      DATABASE_READ_MAX_LAG_MS: 5000,
      DATABASE_DIRECT_URL: 'postgres://app@primary:5432/broker',
    });
    expect(loadEnv({}).DATABASE_READ_URL).toBeUndefined();
    expect(loadEnv({ DATABASE_URL: primary, DATABASE_READ_MAX_LAG_MS: '30000' }).DATABASE_READ_MAX_LAG_MS).toBe(30_000);
  });

  it('refuses standbys or a direct URL without DATABASE_URL: PGlite has neither', () => {
    expect(() => loadEnv({ DATABASE_READ_URL: 'postgres://standby/broker' })).toThrow(/DATABASE_READ_URL: needs DATABASE_URL/);
    expect(() => loadEnv({ DATABASE_DIRECT_URL: 'postgres://primary/broker' })).toThrow(/DATABASE_DIRECT_URL: needs DATABASE_URL/);
  });

  it('resolves relative paths from the directory the command was typed in (npm: INIT_CWD), and leaves URLs alone', () => {
    const env = loadEnv({
      INIT_CWD: '/home/ops/broker',
      PGLITE_DIR: './data/pglite',
      CORPS_FILE: 'corps.json',
      WECOM_VERIFY_DIR: '../verify',
      WEB_DIST_DIR: '/srv/web',
      WECOM_MODE: 'real',
    });
    expect(env).toMatchObject({
      PGLITE_DIR: '/home/ops/broker/data/pglite',
      CORPS_FILE: '/home/ops/broker/corps.json',
      WECOM_VERIFY_DIR: '/home/ops/verify',
      WEB_DIST_DIR: '/srv/web',
    });
    expect(loadEnv({ INIT_CWD: '/home/ops/broker', PGLITE_DIR: 'memory://' }).PGLITE_DIR).toBe('memory://');
  });

  it('gives the tools the same database as the server: flags first, then the variables, paths from INIT_CWD', () => {
    const source = { INIT_CWD: '/home/ops/broker', PGLITE_DIR: 'data/pglite' };
    expect(loadDatabaseTarget({}, source)).toEqual({ url: undefined, pgliteDir: '/home/ops/broker/data/pglite' });
    expect(loadDatabaseTarget({ pgliteDir: '/tmp/x' }, source).pgliteDir).toBe('/tmp/x');
    expect(loadDatabaseTarget({}, { DATABASE_URL: 'postgres://db/broker' }).url).toBe('postgres://db/broker');
    expect(() => loadDatabaseTarget({ databaseUrl: 'mysql://x' }, {})).toThrow(/--database-url="mysql:\/\/x": must be a postgres:\/\//);
    expect(() => loadDatabaseTarget({}, { DATABASE_URL: 'mysql://x' })).toThrow(
      /^Invalid configuration:\n {2}- DATABASE_URL="mysql:\/\/x"/,
    );
  });

  it.each([
    [undefined, false],
    ['false', false],
    ['0', false],
    ['1', 1],
    ['2', 2],
    ['10.0.0.5', ['10.0.0.5']],
    [' 10.0.0.0/8 , fd00::/8,::1 ', ['10.0.0.0/8', 'fd00::/8', '::1']],
    ['192.168.0.0/016', ['192.168.0.0/16']],
  ])('reads TRUST_PROXY=%s as %j', (value, expected) => {
    expect(loadEnv(value === undefined ? {} : { NODE_ENV: 'test', TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });
});
