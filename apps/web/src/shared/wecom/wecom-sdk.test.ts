import { afterEach, beforeAll, expect, test, vi } from 'vitest';
import { connectWeCom, getCurrentExternalUserId, getWeComEntry, isDroppedRegisterRejection, isWeComBrowser, resetWeCom } from './wecom-sdk';

vi.mock('../api/corp-config', () => ({
  loadCorpConfig: async () => ({
    corpCode: 'fxhl',
    corpId: 'wwcorp',
    corpName: 'Demo',
    agents: [{ agentCode: 'khzl', agentId: '1000002' }],
    oauthBase: '/wecom',
    emulator: false,
  }),
}));

const GOOD = 'a'.repeat(40);
const signedUrls: string[] = [];

/** A stand-in for WeCom's client: agentConfig passes only with the signature it expects. */
beforeAll(() => {
  // The SDK reads the user agent when it loads (on first use, below): be WeCom's in-app browser.
  Object.defineProperty(navigator, 'userAgent', {
    value: 'Mozilla/5.0 (iPhone) Mobile/15E148 wxwork/4.1.22 MicroMessenger/7.0.1',
    configurable: true,
  });
  let verified = false;
  const handlers: Record<string, (params: Record<string, unknown>) => Record<string, unknown>> = {
    agentConfig: (params) => {
      verified = params.signature === GOOD && params.corpid === 'wwcorp' && params.agentid === '1000002';
      return { err_msg: verified ? 'agentConfig:ok' : 'agentConfig:invalid signature' };
    },
    getContext: () => ({ err_msg: 'getContext:ok', entry: 'single_chat_tools' }),
    getCurExternalContact: () =>
      verified
        ? { err_msg: 'getCurExternalContact:ok', userId: 'wmEmu0001HoKwokLeung' }
        : { err_msg: 'getCurExternalContact:fail no permission' },
  };
  Object.assign(window, {
    WeixinJSBridge: {
      invoke: (name: string, params: Record<string, unknown>, callback: (result: unknown) => void) =>
        callback(handlers[name]?.(params) ?? { err_msg: `${name}:fail` }),
      on: () => undefined,
    },
  });
});

afterEach(() => resetWeCom());

const signer = (signature: string) => async (url: string) => {
  signedUrls.push(url);
  const data = { timestamp: 1, nonceStr: 'n', signature };
  return { corpId: 'wwcorp', agentId: '1000002', config: data, agentConfig: data };
};

test("WeCom's browser is told by its user agent", () => {
  expect(isWeComBrowser('Mozilla/5.0 (iPhone) Mobile/15E148 wxwork/4.1.22 MicroMessenger/7.0.1')).toBe(true);
  expect(isWeComBrowser('Mozilla/5.0 (iPhone) Mobile/15E148 MicroMessenger/8.0.1')).toBe(false);
});

// A refused signature is proven against the emulated bridge in e2e/kyc.e2e.test.ts: `ww.register` drops its
// agentConfig promise, which a browser page absorbs (see silenceRegisterRejections) but Node reports as unhandled.
test('the right signature, made for the page URL the SDK passes, lets the page read its entry and the chat contact', async () => {
  await connectWeCom(signer(GOOD));
  await expect(getWeComEntry()).resolves.toBe('single_chat_tools');
  await expect(getCurrentExternalUserId()).resolves.toBe('wmEmu0001HoKwokLeung');
  expect(signedUrls.at(-1)).toBe(window.location.href.split('#')[0]);
});

test('only the rejections ww.register drops are silenced: refused signatures and aborts by navigation', () => {
  expect(isDroppedRegisterRejection({ errMsg: 'agentConfig:invalid signature' })).toBe(true);
  expect(isDroppedRegisterRejection(new Error('SDK Error: Aborted'))).toBe(true);
  expect(isDroppedRegisterRejection(new Error('network down'))).toBe(false);
  expect(isDroppedRegisterRejection({ errMsg: 'getContext:fail' })).toBe(false);
  expect(isDroppedRegisterRejection(undefined)).toBe(false);
});
