import { afterAll, describe, expect, test } from 'vitest';
import { ErrorCode } from '@broker/contract';
import { i18n } from '../i18n/i18n';
import { localizedErrorMessage } from './error-messages';

const WECOM_CODES = (Object.keys(ErrorCode) as (keyof typeof ErrorCode)[])
  // The callback codes answer WeCom's servers, never a client manager's page.
  .filter((name) => name.startsWith('WECOM_') && !name.startsWith('WECOM_CALLBACK_'))
  .map((name) => ErrorCode[name]);

/** Issue 19.3: a client manager reads what went wrong with WeCom, in their language, and whom to ask. */
describe('WeCom problems in words', () => {
  afterAll(async () => {
    await i18n.changeLanguage('zh-CN');
  });

  test('every named WeCom code has its own message in each language', async () => {
    expect(WECOM_CODES.length).toBeGreaterThanOrEqual(12);
    for (const language of ['zh-CN', 'zh-HK', 'en']) {
      await i18n.changeLanguage(language);
      const generic = localizedErrorMessage(ErrorCode.UPSTREAM_WECOM);
      for (const code of WECOM_CODES) {
        const message = localizedErrorMessage(code);
        expect(message, `${language} ${code}`).toBeTruthy();
        expect(message, `${language} ${code}`).not.toBe(generic);
      }
    }
  });

  test('a setting only the WeCom admin can fix says so and quotes the code to pass on', async () => {
    await i18n.changeLanguage('zh-CN');
    expect(localizedErrorMessage(ErrorCode.WECOM_IP_NOT_TRUSTED)).toBe(
      '企业微信拒绝了本系统的服务器地址（可信IP），请联系企业微信管理员（错误码 092501）',
    );
    await i18n.changeLanguage('en');
    expect(localizedErrorMessage(ErrorCode.WECOM_NOT_VISIBLE)).toBe(
      'You are not in this WeCom app’s visible range. Ask your WeCom administrator to add you (code 092509).',
    );
    expect(localizedErrorMessage(ErrorCode.WECOM_BUSY)).toBe('WeCom is busy. Please try again shortly.');
  });
});
