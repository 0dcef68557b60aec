/** A reference name (a security's, …) as the data carries it: Simplified, Hong Kong Traditional, English. */
export type ReferenceNames = Partial<Record<'cn' | 'hk' | 'en', string | null | undefined>>;

/** The name in the reader's language (zh-HK: Traditional, else Simplified); any name rather than none. */
export function nameInLanguage({ cn, hk, en }: ReferenceNames, language: string): string {
  const order = language.startsWith('en') ? [en, cn, hk] : language === 'zh-HK' ? [hk, cn, en] : [cn, hk, en];
  return order.find((name) => typeof name === 'string' && name !== '') ?? '';
}
