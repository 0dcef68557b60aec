import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILT_IN_CORP } from '../corps';
import { testDatabases, startTestApp, signInAs, apiClient, type ApiClient, type RunningTestApp } from '../testing';
import type { DatabaseHandle } from '../db/client';

/** Parses a CSP header into directive → sources. */
const directivesOf = (header: string | null) =>
  Object.fromEntries(
    (header ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name!, sources]),
  );

const COMMON = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

for (const engine of testDatabases()) {
  describe(`security headers (${engine.kind})`, () => {
    let database: DatabaseHandle & { drop(): Promise<void> };
    let server: RunningTestApp;
    let behindProxy: RunningTestApp;
    let api: ApiClient;

    beforeAll(async () => {
      const dist = mkdtempSync(join(tmpdir(), 'web-dist-headers-'));
      mkdirSync(join(dist, 'assets'));
      writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root">broker</div>');
      writeFileSync(join(dist, 'assets', 'app-3f2a.js'), 'console.log("app")');
      database = await engine.create();
      server = await startTestApp(database, { WEB_DIST_DIR: dist });
      behindProxy = await startTestApp(database, {
        WEB_DIST_DIR: dist,
        TRUST_PROXY: '1',
        SENTRY_DSN: 'https://0123abcd@o42.ingest.sentry.io/7',
      });
      api = apiClient(server.baseUrl, await signInAs(server.baseUrl, 'chanwaiman'));
    });
    afterAll(async () => {
      await server?.close();
      await behindProxy?.close();
      await database?.drop();
    });

    const responses = () => ({
      'API success': api.getDefaultCcy(),
      'API error': apiClient(server.baseUrl, { corp: null, agent: null }).getDefaultCcy(),
      'API miss': fetch(`${server.baseUrl}/api/nothing-here`),
      'SPA index': fetch(`${server.baseUrl}/client/manage/list`, { headers: { accept: 'text/html' } }),
      'static asset': fetch(`${server.baseUrl}/assets/app-3f2a.js`),
      health: fetch(`${server.baseUrl}/healthz`),
    });

    it('puts the strict policy and the other headers on API, static and error responses', async () => {
      for (const [what, pending] of Object.entries(responses())) {
        const response = await pending;
        expect(response.status, what).toBeLessThan(500);
        for (const [name, value] of Object.entries(COMMON)) expect(response.headers.get(name), `${what}: ${name}`).toBe(value);
        expect(response.headers.get('x-frame-options'), what).toBe('DENY');
        expect(directivesOf(response.headers.get('content-security-policy')), what).toEqual({
          'default-src': ["'self'"],
          'script-src': ["'self'"],
          'style-src': ["'self'"],
          'img-src': ["'self'", 'data:'],
          'font-src': ["'self'", 'data:'],
          'connect-src': ["'self'"],
          'object-src': ["'none'"],
          'base-uri': ["'self'"],
          'form-action': ["'self'"],
          'frame-ancestors': ["'none'"],
        });
        // Plain HTTP: no HSTS (browsers would ignore it, and local http must keep working).
        expect(response.headers.get('strict-transport-security'), what).toBeNull();
      }
    });

    it('never allows inline or eval script, and no origin other than our own runs script', async () => {
      const policy = (await fetch(`${server.baseUrl}/client/manage/list`, { headers: { accept: 'text/html' } })).headers.get(
        'content-security-policy',
      )!;
      expect(policy).not.toMatch(/unsafe-(inline|eval)|\*|https?:/);
    });

    it('puts the same policy and frame rule on the emulated WeCom pages (same origin, so no exemption)', async () => {
      const corpId = BUILT_IN_CORP.corpId;
      const pages = {
        sidebar: `${server.baseUrl}/wecom/__emulator/sidebar?entry=normal&url=/`,
        authorise: `${server.baseUrl}/wecom/connect/oauth2/authorize?appid=${corpId}&redirect_uri=${encodeURIComponent(`${server.baseUrl}/wxEntry`)}&response_type=code&scope=snsapi_privateinfo&agentid=${BUILT_IN_CORP.agents.khzl.agentId}&state=s`,
        'error page': `${server.baseUrl}/wecom/connect/oauth2/authorize?appid=nobody`,
        bridge: `${server.baseUrl}/wecom/jsbridge.js`,
      };
      for (const [what, url] of Object.entries(pages)) {
        const response = await fetch(url);
        expect(response.status, what).toBeLessThan(500);
        expect(response.headers.get('x-frame-options'), what).toBe('DENY');
        expect(directivesOf(response.headers.get('content-security-policy'))['script-src'], what).toEqual(["'self'"]);
        expect(directivesOf(response.headers.get('content-security-policy'))['style-src'], what).toEqual(["'self'"]);
        for (const [name, value] of Object.entries(COMMON)) expect(response.headers.get(name), `${what}: ${name}`).toBe(value);
        if (what === 'bridge') continue;
        // Nothing inline the policy would block: no <script> body, no <style>, no style attribute.
        const html = await response.text();
        expect(html, what).not.toMatch(/<script>|<script(?![^>]*\ssrc=)[^>]*>|<style|\sstyle="/);
      }
    });

    it('behind a TLS proxy: HSTS; with a Sentry DSN its origin may receive reports', async () => {
      const secure = await fetch(`${behindProxy.baseUrl}/healthz`, { headers: { 'x-forwarded-proto': 'https' } });
      expect(secure.headers.get('strict-transport-security')).toBe('max-age=31536000');
      expect(directivesOf(secure.headers.get('content-security-policy'))['connect-src']).toEqual([
        "'self'",
        'https://o42.ingest.sentry.io',
      ]);
      const plain = await fetch(`${behindProxy.baseUrl}/healthz`);
      expect(plain.headers.get('strict-transport-security')).toBeNull();
      // Without TRUST_PROXY the forwarded protocol is not believed.
      const spoofed = await fetch(`${server.baseUrl}/healthz`, { headers: { 'x-forwarded-proto': 'https' } });
      expect(spoofed.headers.get('strict-transport-security')).toBeNull();
    });
  });
}
