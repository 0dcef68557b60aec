/**
 * Jyutping → how Hong Kong writes a Cantonese syllable in an English name (WONG, CHAN, CHEUNG, TSANG, SZE…).
 * Domain data: a syllable has several spellings in use (張 CHEUNG or TSEUNG, 李 LEE or LEI), the usual one
 * first; the usual spelling makes the initials, every spelling is indexed.
 */

/** Longest first, so `gw` is read before `g` and `ng` before `n`. */
const INITIALS = ['gw', 'kw', 'ng', 'b', 'p', 'm', 'f', 'd', 't', 'n', 'l', 'g', 'k', 'h', 'w', 'z', 'c', 's', 'j'] as const;

/** Unaspirated b/d/g are written as p/t/k; z and c as CH or TS; any other initial as it is. */
const INITIAL_SPELLINGS: Record<string, readonly string[]> = {
  b: ['p'],
  d: ['t'],
  g: ['k'],
  gw: ['kw'],
  z: ['ch', 'ts'],
  c: ['ch', 'ts'],
  s: ['s', 'sh'],
  j: ['y'],
};

/** Long and short a are written alike; oe/eo become EU/U (張 CHEUNG, 徐 TSUI). */
const FINAL_SPELLINGS: Record<string, readonly string[]> = {
  '': [''],
  aa: ['a', 'ah'],
  aai: ['ai'],
  aau: ['au'],
  aam: ['am'],
  aan: ['an'],
  aang: ['ang'],
  aap: ['ap'],
  aat: ['at'],
  aak: ['ak'],
  a: ['a'],
  ai: ['ai'],
  au: ['au', 'ow'],
  am: ['am'],
  an: ['an'],
  ang: ['ang'],
  ap: ['ap'],
  at: ['at'],
  ak: ['ak'],
  e: ['e'],
  ei: ['ei', 'ee'],
  eu: ['eu'],
  em: ['em'],
  eng: ['eng'],
  ep: ['ep'],
  ek: ['ek'],
  i: ['ee', 'i'],
  iu: ['iu'],
  im: ['im'],
  in: ['in'],
  ing: ['ing'],
  ip: ['ip'],
  it: ['it'],
  ik: ['ik'],
  o: ['o', 'oh'],
  oi: ['oi', 'oy'],
  ou: ['o', 'ou'],
  on: ['on'],
  ong: ['ong'],
  ot: ['ot'],
  ok: ['ok'],
  oe: ['oe'],
  oeng: ['eung'],
  oet: ['eut'],
  oek: ['euk'],
  eoi: ['ui', 'eui'],
  eon: ['un', 'eun'],
  eot: ['ut'],
  u: ['u', 'oo'],
  ui: ['ui'],
  un: ['oon', 'un'],
  ut: ['oot', 'ut'],
  ung: ['ung'],
  uk: ['uk'],
  yu: ['u', 'ue'],
  yun: ['uen'],
  yut: ['uet', 'ut'],
};

/** Written otherwise than initial + final: 志 CHI / TSZ, 詩 SZE, 兒 YEE, 吳 NG, 唔 M. */
const SYLLABLE_SPELLINGS: Record<string, readonly string[]> = {
  zi: ['chi', 'tsz', 'chee'],
  ci: ['chi', 'tsz', 'chee'],
  si: ['sze', 'si', 'shi', 'see'],
  ji: ['yee', 'yi'],
  jyu: ['yu', 'yue'],
  ng: ['ng'],
  m: ['m'],
  hm: ['hm'],
  hng: ['hng'],
};

const cache = new Map<string, readonly string[]>();

/** The usual spelling first; empty for anything not a Jyutping syllable (not indexed rather than guessed). */
export function hkSpellings(jyutping: string): readonly string[] {
  const syllable = jyutping.toLowerCase().replace(/[1-6]$/, '');
  const known = cache.get(syllable);
  if (known) return known;
  let spellings: readonly string[] = [];
  const whole = SYLLABLE_SPELLINGS[syllable];
  if (whole) spellings = whole;
  else {
    const initial = INITIALS.find((candidate) => syllable.startsWith(candidate) && FINAL_SPELLINGS[syllable.slice(candidate.length)]) ?? '';
    const finals = FINAL_SPELLINGS[syllable.slice(initial.length)];
    if (finals && syllable.length > 0) {
      const all: string[] = [];
      for (const finalSpelling of finals)
        for (const initialSpelling of INITIAL_SPELLINGS[initial] ?? [initial]) all.push(initialSpelling + finalSpelling);
      spellings = [...new Set(all)].filter((spelling) => spelling.length > 0);
    }
  }
  cache.set(syllable, spellings);
  return spellings;
}
