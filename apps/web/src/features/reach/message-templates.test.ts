import { describe, expect, test } from 'vitest';
import { LANGUAGES } from '../../shared/i18n/i18n';
import { MESSAGE_TEMPLATES, addressedName, composeMessage } from './message-templates';

const client = { nameCn: '何国良', nameEn: 'HO Kwok Leung' };
const card = { link: 'https://www.example.com/', imgUrl: 'https://www.example.com/cover.png' };

describe('message templates', () => {
  test('every template has a text and a card in every language, naming the client', () => {
    for (const language of LANGUAGES) {
      for (const template of MESSAGE_TEMPLATES) {
        const name = language === 'en' ? 'HO Kwok Leung' : '何国良';
        const text = composeMessage(template, 'text', language, client, card);
        expect(text.msgtype).toBe('text');
        expect(text.msgtype === 'text' && text.text.content).toContain(name);
        const news = composeMessage(template, 'card', language, client, card);
        expect(news).toMatchObject({ msgtype: 'news', news: { link: card.link, imgUrl: card.imgUrl } });
        expect(news.msgtype === 'news' && news.news.desc).toContain(name);
        expect(news.msgtype === 'news' && news.news.title.length).toBeGreaterThan(0);
      }
    }
  });

  test('the languages differ: simplified, traditional and English wording', () => {
    const words = LANGUAGES.map((language) => composeMessage('birthday', 'card', language, client, card));
    expect(new Set(words.map((message) => (message.msgtype === 'news' ? message.news.title : ''))).size).toBe(3);
    expect(words[1]!.msgtype === 'news' && words[1]!.news.title).toBe('生日快樂');
  });

  test('a missing name in one script falls back to the other', () => {
    expect(addressedName({ nameCn: '', nameEn: 'WANG Lei' }, 'zh-CN')).toBe('WANG Lei');
    expect(addressedName({ nameCn: '王磊', nameEn: ' ' }, 'en')).toBe('王磊');
  });
});
