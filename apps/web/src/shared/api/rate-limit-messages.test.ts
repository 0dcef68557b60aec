import { afterAll, describe, expect, test } from 'vitest';
import { ErrorCode } from '@broker/contract';
import { i18n } from '../i18n/i18n';
import { localizedErrorMessage } from './error-messages';

describe('rate-limit messages', () => {
  afterAll(async () => {
    await i18n.changeLanguage('zh-CN');
  });

  test('say what was limited and when to retry, in each language, from Retry-After', async () => {
    const expected = {
      'zh-CN': ['登录尝试过于频繁，请 42 秒后再试', '搜索过于频繁，请 7 秒后再搜索'],
      'zh-HK': ['登入嘗試過於頻繁，請 42 秒後再試', '搜尋過於頻繁，請 7 秒後再搜尋'],
      en: ['Too many sign-in attempts. Please try again in 42 s.', 'Too many searches. Please search again in 7 s.'],
    };
    for (const [language, [login, search]] of Object.entries(expected)) {
      await i18n.changeLanguage(language);
      expect(localizedErrorMessage(ErrorCode.LOGIN_RATE_LIMITED, { retryAfter: '42' })).toBe(login);
      expect(localizedErrorMessage(ErrorCode.KYC_SEARCH_RATE_LIMITED, { retryAfter: '7' })).toBe(search);
    }
  });

  test('without a usable Retry-After they fall back to the general "too many requests"', async () => {
    await i18n.changeLanguage('en');
    for (const retryAfter of [null, '', 'soon', '0', '1.5']) {
      expect(localizedErrorMessage(ErrorCode.KYC_SEARCH_RATE_LIMITED, { retryAfter })).toBe('Too many requests. Please try again shortly.');
    }
  });
});
