/**
 * The part of i18next this app uses, with i18next's rules, instead of i18next + react-i18next on the first screen (ADR 0032
 * lists what is kept): plurals as v21 reads them (`key_one` / `key_other` by `Intl.PluralRules`, then `key`).
 */
export type Strings = { [key: string]: unknown };

/** A language's strings shaped like the default language's, any of them with its `_one` form (English "1 event"; Chinese has one form). */
export type WithPluralForms<T> = { [K in keyof T]: T[K] extends string ? string : WithPluralForms<T[K]> } & {
  [K in keyof T as T[K] extends string ? `${K & string}_one` : never]?: string;
};

export interface TOptions {
  defaultValue?: string;
  returnObjects?: boolean;
  lng?: string;
  [name: string]: unknown;
}

/**
 * Each set of strings merges its default language's shape in (`declare module … { interface StringSets { kyc: … } }` beside its
 * `registerLocales`), so `t` takes only keys that exist and a misspelt key fails typecheck.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by each set's augmentation
export interface StringSets {}

/** The paths through `T` to a string (`leaf`), to any object (`group`), or to an object that holds only strings (`labels`). */
type PathsOf<T, Prefix extends string, Want extends 'leaf' | 'group' | 'labels'> = {
  [K in keyof T & string]: T[K] extends string
    ? Want extends 'leaf'
      ? `${Prefix}${K}`
      : never
    : | (Want extends 'group' ? `${Prefix}${K}` : never)
      | (Want extends 'labels' ? (T[K][keyof T[K]] extends string ? `${Prefix}${K}` : never) : never)
      | PathsOf<T[K], `${Prefix}${K}.`, Want>;
}[keyof T & string];
type AllPaths<Want extends 'leaf' | 'group' | 'labels'> = { [S in keyof StringSets]: PathsOf<StringSets[S], '', Want> }[keyof StringSets];

/** A key that names a string. */
export type TranslationKey = AllPaths<'leaf'>;
/** A key that names a group of strings (for `returnObjects`). */
export type TranslationGroup = AllPaths<'group'>;
/** A group that holds only strings, such as `mot.market`: what a key built from data may name the last part of. */
type LabelGroup = AllPaths<'labels'>;

/** The names in a group of strings: `KeysUnder<'mot.fact'>` is 'amount' | 'currency' | …. */
export type KeysUnder<Group extends TranslationGroup> = TranslationKey extends infer Key
  ? Key extends `${Group}.${infer Name}`
    ? Name
    : never
  : never;

export interface TFunction {
  (key: TranslationKey, options?: TOptions & { returnObjects?: false }): string;
  /** A key built from data the app does not enumerate (a fact's market, a field's value): its group is checked, and a value with no string says `defaultValue`. */
  (key: `${LabelGroup}.${string}`, options: TOptions & { defaultValue: string; returnObjects?: false }): string;
  (key: TranslationGroup, options: TOptions & { returnObjects: true }): unknown;
}

const isObject = (value: unknown): value is Strings => typeof value === 'object' && value !== null;

/** `into` with `from`'s strings on top, key by key; neither is changed. */
function merged(into: unknown, from: Strings): Strings {
  const result = (Array.isArray(into) ? [...(into as unknown[])] : isObject(into) ? { ...into } : {}) as Strings;
  for (const [key, value] of Object.entries(from)) {
    if (key === '__proto__' || key === 'constructor') continue;
    const current = result[key];
    result[key] = isObject(value) && isObject(current) ? merged(current, value) : value;
  }
  return result;
}

function pathIn(strings: unknown, path: string): unknown {
  let at = strings;
  for (const part of path.split('.')) {
    if (!isObject(at) || !Object.hasOwn(at, part)) return undefined;
    at = at[part];
  }
  return at;
}

/**
 * i18next's lookup: the key as a path, else with dots inside keys too (`audit.action` holds `customer.update`): the whole rest of
 * the key if it is there, else the shortest run of parts that names something to go into.
 */
function lookUp(strings: unknown, key: string): unknown {
  const strict = pathIn(strings, key);
  if (strict !== undefined && strict !== null) return strict;
  if (!isObject(strings)) return undefined;
  if (strings[key]) return Object.hasOwn(strings, key) ? strings[key] : undefined;
  const parts = key.split('.');
  let at: unknown = strings;
  for (let from = 0; from < parts.length;) {
    if (!isObject(at)) return undefined;
    let next: unknown;
    for (let to = from; to < parts.length; to++) {
      const name = parts.slice(from, to + 1).join('.');
      next = Object.hasOwn(at, name) ? at[name] : undefined;
      if (next === undefined) continue;
      if (to < parts.length - 1 && !isObject(next)) continue;
      from = to + 1;
      break;
    }
    at = next;
  }
  return at;
}

const PLACEHOLDER = /\{\{(.+?)\}\}/g;

function interpolate(text: string, options: TOptions): string {
  return text.replace(PLACEHOLDER, (placeholder, raw: string) => {
    const name = raw.trim();
    const value = pathIn(options, name);
    if (value === undefined) return Object.hasOwn(options, name) ? '' : placeholder;
    if (value === null) return '';
    // An object named by a placeholder shows as JSON, not "[object Object]".
    return typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value);
  });
}

function interpolateAll(value: unknown, options: TOptions): unknown {
  if (typeof value === 'string') return interpolate(value, options);
  if (!isObject(value)) return value;
  const copy = (Array.isArray(value) ? [] : {}) as Strings;
  for (const [key, item] of Object.entries(value)) copy[key] = interpolateAll(item, options);
  return copy;
}

const pluralRules = new Map<string, Intl.PluralRules>();

/** The plural category of `count` in `language` (`one`, `other`…), with one `Intl.PluralRules` per language. */
function pluralCategory(language: string, count: number): Intl.LDMLPluralRule {
  let rules = pluralRules.get(language);
  if (!rules) pluralRules.set(language, (rules = new Intl.PluralRules(language)));
  return rules.select(count);
}

export class Translator {
  private readonly strings = new Map<string, Strings>();
  private readonly listeners = new Set<(language: string) => void>();

  constructor(
    public language: string,
    private readonly fallbackLanguage: string,
  ) {}

  addResourceBundle(language: string, strings: Strings) {
    this.strings.set(language, merged(this.strings.get(language), strings));
  }

  /** i18next's `t`: the string at `key` (see the top of this file). */
  readonly t = ((key: string, options?: TOptions) => this.translate(key, options)) as TFunction;

  translate(key: string, options: TOptions = {}): unknown {
    const language = options.lng ?? this.language;
    const languages = language === this.fallbackLanguage ? [language] : [language, this.fallbackLanguage];
    const count = typeof options.count === 'number' ? options.count : null;
    for (const candidate of languages) {
      const strings = this.strings.get(candidate);
      const plural = count === null ? undefined : lookUp(strings, `${key}_${pluralCategory(candidate, count)}`);
      const found = typeof plural === 'string' ? plural : lookUp(strings, key);
      if (typeof found === 'string') return interpolate(found, options);
      if (found !== undefined && found !== null && options.returnObjects) return interpolateAll(found, options);
    }
    return interpolate(options.defaultValue ?? key, options);
  }

  async changeLanguage(language: string) {
    if (language === this.language) return;
    this.language = language;
    for (const listener of [...this.listeners]) listener(language);
  }

  /** Called with the new language after every change; returns the unsubscribe. */
  onLanguageChanged(listener: (language: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
