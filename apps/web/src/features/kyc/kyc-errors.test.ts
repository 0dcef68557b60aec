import { expect, test } from 'vitest';
import { ApiError } from '../../shared/api/api-error';
import { i18n } from '../../shared/i18n/i18n';
import { WeComError } from '../../shared/wecom/wecom-sdk';
import { kycErrorMessage } from './kyc-errors';
import { kycLocales } from './locales';

const { t } = i18n;
const CODES = ['091001', '091002', '091003', '091004', '091005', '090403'] as const;

test.each(['zh-CN', 'zh-HK', 'en'] as const)('every KYC rule breach has its own message in %s', async (language) => {
  await i18n.changeLanguage(language);
  const messages = CODES.map((code) => kycErrorMessage(new ApiError(code, 'server words', '/api/client/customer/kyc/bind'), t));
  expect(messages).toEqual(CODES.map((code) => kycLocales[language].kyc.errors[code]));
  expect(new Set(messages.slice(0, 5)).size).toBe(5);
  await i18n.changeLanguage('zh-CN');
});

test('other failures keep the message the request layer gave them', () => {
  expect(kycErrorMessage(new ApiError('090502', 'WeCom is unavailable', '/x'), t)).toBe('WeCom is unavailable');
});

test('a refused WeCom call is explained by the step that failed', () => {
  const message = kycErrorMessage(new WeComError('register', 'agentConfig:invalid signature'), t);
  expect(message).toBe('企业微信拒绝了页面签名，请关闭侧边栏后重新打开');
});

test('the three languages have the same keys', () => {
  const keys = (value: object, prefix = ''): string[] =>
    Object.entries(value).flatMap(([key, child]) =>
      typeof child === 'object' ? keys(child as object, `${prefix}${key}.`) : [`${prefix}${key}`],
    );
  expect(keys(kycLocales['zh-HK'])).toEqual(keys(kycLocales['zh-CN']));
  expect(keys(kycLocales.en)).toEqual(keys(kycLocales['zh-CN']));
});
