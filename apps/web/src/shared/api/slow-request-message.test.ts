import { afterAll, describe, expect, test } from 'vitest';
import { ErrorCode } from '@broker/contract';
import { i18n } from '../i18n/i18n';
import { localizedErrorMessage } from './error-messages';

/** ADR 0014: a request the server stopped waiting for reads as a slow network, in the user's language. */
describe('a request that did not arrive in time', () => {
  afterAll(async () => {
    await i18n.changeLanguage('zh-CN');
  });

  test('says so in each language', async () => {
    const expected = {
      'zh-CN': '网络太慢，请求未能及时送达，请重试',
      'zh-HK': '網絡太慢，請求未能及時送達，請重試',
      en: 'The network is too slow; the request did not arrive in time. Please try again.',
    };
    for (const [language, text] of Object.entries(expected)) {
      await i18n.changeLanguage(language);
      expect(localizedErrorMessage(ErrorCode.REQUEST_TIMEOUT)).toBe(text);
    }
  });
});
