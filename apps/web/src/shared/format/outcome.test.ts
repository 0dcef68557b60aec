import { afterEach, expect, test } from 'vitest';
import { changeLanguage } from '../i18n/i18n';
import { SERVICE_OUTCOME_WORDS } from '../api/contract';
import { SERVICE_OUTCOME_CODES, outcomeCodeOf, outcomeText } from './outcome';

afterEach(async () => {
  await changeLanguage('zh-CN');
});

test('an outcome saved from a chip is a code, shown in the reader’s language', async () => {
  expect(outcomeText('meeting_booked')).toBe('已约面谈');
  await changeLanguage('zh-HK');
  expect(outcomeText('meeting_booked')).toBe('已約面談');
  await changeLanguage('en');
  expect(outcomeText('meeting_booked')).toBe('Meeting booked');
});

test('a chip’s words saved before codes read as the chip; the manager’s own words stay as typed', async () => {
  await changeLanguage('en');
  expect(outcomeCodeOf('已联系客户')).toBe('contacted');
  expect(outcomeText('已联系客户')).toBe('Client contacted');
  expect(outcomeText('未能聯絡上')).toBe('Could not reach');
  expect(outcomeText('客户想加仓，下周再谈')).toBe('客户想加仓，下周再谈');
  expect(outcomeText(null)).toBe('');
});

test('each chip shows the words the contract knows it by, in every language (the server searches by them)', async () => {
  for (const [index, language] of (['zh-CN', 'zh-HK', 'en'] as const).entries()) {
    await changeLanguage(language);
    for (const code of SERVICE_OUTCOME_CODES) expect(outcomeText(code), `${code} in ${language}`).toBe(SERVICE_OUTCOME_WORDS[code][index]);
  }
});
