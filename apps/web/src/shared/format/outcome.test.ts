import { afterEach, expect, test } from 'vitest';
import { changeLanguage } from '../i18n/i18n';
import { outcomeCodeOf, outcomeText } from './outcome';

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
