import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { APP_HOME_PATH } from '@broker/contract/app-routes';
import { hostileNavigationTargets } from '@broker/contract/testing';
import { buildEmulatorApp } from './emulator-app';

let app: FastifyInstance;

beforeAll(async () => {
  ({ app } = await buildEmulatorApp({ corps: [] }));
});

afterAll(() => app.close());

/** Where the sidebar opener sends the page: the target its script replaces the page with, and its fallback link. */
async function sidebarTarget(url: string) {
  const response = await app.inject({ method: 'GET', url: '/wecom/__emulator/sidebar', query: { entry: 'single_chat_tools', url } });
  expect(response.statusCode).toBe(200);
  const replaced = / data-target="([^"]*)"/.exec(response.body);
  const link = /<a href="([^"]*)">/.exec(response.body);
  expect(replaced).not.toBeNull();
  const unescape = (text: string) => text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
  return { replaced: unescape(replaced![1]!), link: unescape(link![1]!) };
}

describe('the emulated sidebar opens only app routes (the safe-navigation rule, ADR 0013)', () => {
  test('a hostile url lands on the client list; an own route is kept', async () => {
    // An empty url is no url: the app's entry URL `/`, as WeCom opens an app.
    for (const { target, lands } of hostileNavigationTargets().filter(({ target }) => target !== '')) {
      const opened = await sidebarTarget(target);
      expect(opened.replaced, JSON.stringify(target)).toBe(lands);
      expect(opened.link, JSON.stringify(target)).toBe(lands);
    }
  });

  test('no url opens the entry URL `/`, as WeCom opens an app; `/` with its query is kept', async () => {
    expect((await sidebarTarget('')).replaced).toBe('/');
    expect((await sidebarTarget('/?entry=single_chat_tools')).replaced).toBe('/?entry=single_chat_tools');
    expect((await sidebarTarget('/wxEntry?code=x')).replaced).toBe(APP_HOME_PATH);
  });
});
