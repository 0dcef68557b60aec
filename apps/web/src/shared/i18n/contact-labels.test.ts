import { describe, expect, test } from 'vitest';
import { contactChannelSchema, contactPurposeSchema } from '@broker/contract';
import { i18n, LANGUAGES } from './i18n';
import { CONTACT_LABELS, registerContactLabels } from './contact-labels';

const GROUPS = { channel: contactChannelSchema.options, purpose: contactPurposeSchema.options } as const;

describe("every channel and purpose of the contract has a name in every language (one copy: the contact log's)", () => {
  test('no code of the contract is left without a label, none is blank', () => {
    const missing = LANGUAGES.flatMap((language) =>
      Object.entries(GROUPS).flatMap(([group, codes]) =>
        codes
          .filter((code) => {
            const labels: Record<string, unknown> = CONTACT_LABELS[language].contact[group as keyof typeof GROUPS];
            const label = labels[code];
            return typeof label !== 'string' || label.trim() === '';
          })
          .map((code) => `${language} ${group}.${code}`),
      ),
    );
    expect(missing).toEqual([]);
  });

  test('within a language, two channels (or two purposes) never share a name', () => {
    for (const language of LANGUAGES)
      for (const group of Object.keys(GROUPS) as (keyof typeof GROUPS)[]) {
        const names = Object.values(CONTACT_LABELS[language].contact[group]);
        expect(new Set(names).size, `${language} ${group}`).toBe(names.length);
      }
  });

  test('registered, each language reads its own names (not the default language as a fallback)', async () => {
    await registerContactLabels();
    for (const language of LANGUAGES)
      for (const [group, codes] of Object.entries(GROUPS))
        for (const code of codes)
          expect(i18n.translate(`contact.${group}.${code}`, { lng: language })).toBe(
            CONTACT_LABELS[language].contact[group as keyof typeof GROUPS][code as never],
          );
    expect(i18n.t('contact.channel.meeting', { lng: 'zh-HK' })).toBe('面談');
    expect(i18n.t('contact.purpose.recommendation', { lng: 'en' })).toBe('Recommendation');
  });
});
