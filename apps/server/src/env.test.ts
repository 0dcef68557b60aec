import { describe, expect, it } from 'vitest';
import { ConfigError, loadEnv } from './env';

describe('configuration', () => {
  it('has working defaults', () => {
    const env = loadEnv({});
    expect(env).toMatchObject({ PORT: 3000, HOST: '127.0.0.1', WECOM_MODE: 'emulator', PGLITE_DIR: './data/pglite', SEED_DEMO: true });
    expect(env.DATABASE_URL).toBeUndefined();
    // A client that stops mid-request is closed within 30 s (issue 17.6).
    expect(env.HTTP_HEADERS_TIMEOUT_MS).toBeLessThanOrEqual(env.HTTP_REQUEST_TIMEOUT_MS);
    expect(env.HTTP_REQUEST_TIMEOUT_MS).toBeLessThan(30_000);
    expect(env.HTTP_IDLE_TIMEOUT_MS).toBeLessThanOrEqual(30_000);
  });

  it.each([
    ['PORT', 'abc', /PORT="abc": must be a number/],
    ['PORT', '70000', /PORT="70000": must be a port number/],
    ['DATABASE_URL', 'mysql://x', /DATABASE_URL="mysql:\/\/x": must be a postgres:\/\/ or postgresql:\/\/ URL/],
    ['WECOM_MODE', 'prod', /WECOM_MODE="prod": must be one of emulator, real/],
    ['SEED_DEMO', 'maybe', /SEED_DEMO="maybe": must be true or false/],
    ['TOKEN_TTL_SECONDS', '5', /TOKEN_TTL_SECONDS="5": must be at least 60/],
    ['DATABASE_POOL_WAIT_MS', '10', /DATABASE_POOL_WAIT_MS="10": must be at least 100/],
    ['HTTP_REQUEST_TIMEOUT_MS', '5', /HTTP_REQUEST_TIMEOUT_MS="5": must be at least 100 \(milliseconds\)/],
    ['HTTP_IDLE_TIMEOUT_MS', 'soon', /HTTP_IDLE_TIMEOUT_MS="soon": must be a number/],
    ['HTTP_HEADERS_TIMEOUT_MS', '30000', /HTTP_HEADERS_TIMEOUT_MS=30000: must be at most HTTP_REQUEST_TIMEOUT_MS \(20000\)/],
  ])('refuses %s=%s, naming the variable', (name, value, message) => {
    expect(() => loadEnv({ [name]: value })).toThrow(ConfigError);
    expect(() => loadEnv({ [name]: value })).toThrow(message);
  });
});
