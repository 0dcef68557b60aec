import fc from 'fast-check';
import type { z } from 'zod';
import type { Endpoint } from '@broker/contract';

/**
 * fast-check generators read off the contract's zod 4 request schemas: valid values, values on the
 * edges of each rule (still valid), and malformed ones. The hostile-input property test sends them
 * to every endpoint, so a new endpoint or field is covered the day it enters the contract.
 *
 * The walker reads `schema._zod.def`, zod 4's public-but-internal description of a schema. A zod
 * construct it does not know fails loudly (`unsupported zod type …`) rather than being skipped.
 */

// ---------------------------------------------------------------------------------------------
// Reading schemas
// ---------------------------------------------------------------------------------------------

interface ZodCheckDef {
  check: string;
  minimum?: number;
  maximum?: number;
  value?: number | bigint;
  inclusive?: boolean;
  format?: string;
  pattern?: RegExp;
}
interface ZodDef {
  type: string;
  coerce?: boolean;
  format?: string;
  pattern?: RegExp;
  checks?: { _zod: { def: ZodCheckDef } }[];
  shape?: Record<string, ZodLike>;
  catchall?: ZodLike;
  innerType?: ZodLike;
  element?: ZodLike;
  options?: ZodLike[];
  entries?: Record<string, string | number>;
  values?: unknown[];
  in?: ZodLike;
  out?: ZodLike;
}
interface ZodLike {
  _zod: { def: ZodDef };
  safeParse(value: unknown): { success: boolean };
}

interface Common {
  /** The zod schema of this node without optional/nullable/default: the judge of validity. */
  schema: ZodLike;
  optional: boolean;
  nullable: boolean;
}
export type SchemaNode = Common &
  (
    | { kind: 'object'; fields: Record<string, SchemaNode>; strict: boolean }
    | {
        kind: 'string';
        minLength: number;
        maxLength: number | undefined;
        patterns: RegExp[];
        format: string | undefined;
        trimmed: boolean;
      }
    | { kind: 'number'; min: number; max: number; integer: boolean; coerce: boolean }
    | { kind: 'boolean' }
    | { kind: 'enum'; values: (string | number)[] }
    | { kind: 'array'; element: SchemaNode; minLength: number; maxLength: number | undefined }
    | { kind: 'union'; options: SchemaNode[] }
    | { kind: 'transform' }
  );

const asZod = (schema: unknown) => schema as ZodLike;

const smallest = (values: number[]) => (values.length > 0 ? Math.min(...values) : undefined);

const checksOf = (def: ZodDef) => (def.checks ?? []).map((check) => check._zod.def);

/** Describes a zod schema as a tree of the facts the generators need. */
export function describeSchema(schema: z.ZodType | ZodLike, path = 'request'): SchemaNode {
  let current = asZod(schema);
  let optional = false;
  let nullable = false;
  for (;;) {
    const { type, innerType } = current._zod.def;
    if (type === 'optional' || type === 'default' || type === 'prefault') optional = true;
    else if (type === 'nullable') nullable = true;
    else if (type !== 'readonly' && type !== 'nonoptional' && type !== 'catch') break;
    current = innerType!;
  }
  const def = current._zod.def;
  const common: Common = { schema: current, optional, nullable };
  const checks = checksOf(def);
  switch (def.type) {
    case 'object':
      return {
        ...common,
        kind: 'object',
        strict: def.catchall?._zod.def.type === 'never',
        fields: Object.fromEntries(Object.entries(def.shape ?? {}).map(([key, field]) => [key, describeSchema(field, `${path}.${key}`)])),
      };
    case 'string': {
      const patterns = checks.filter((check) => check.check === 'string_format' && check.pattern).map((check) => check.pattern!);
      if (def.pattern && def.format !== 'email' && def.format !== 'url') patterns.push(def.pattern);
      return {
        ...common,
        kind: 'string',
        minLength: Math.max(0, ...checks.filter((check) => check.check === 'min_length').map((check) => check.minimum!)),
        maxLength: smallest(checks.filter((check) => check.check === 'max_length').map((check) => check.maximum!)),
        patterns,
        format: def.format === 'regex' ? undefined : def.format,
        trimmed: checks.some((check) => check.check === 'overwrite'),
      };
    }
    case 'number': {
      const bound = (check: string, fallback: number, nudge: number) =>
        checks
          .filter((entry) => entry.check === check)
          .map((entry) => Number(entry.value) + (entry.inclusive ? 0 : nudge))
          .reduce((a, b) => (nudge > 0 ? Math.max(a, b) : Math.min(a, b)), fallback);
      const integer = checks.some((check) => check.check === 'number_format' && /int/.test(check.format ?? ''));
      const limit = integer ? Number.MAX_SAFE_INTEGER : Number.MAX_VALUE;
      return {
        ...common,
        kind: 'number',
        integer,
        coerce: def.coerce === true,
        min: bound('greater_than', -limit, integer ? 1 : Number.EPSILON),
        max: bound('less_than', limit, integer ? -1 : -Number.EPSILON),
      };
    }
    case 'boolean':
      return { ...common, kind: 'boolean' };
    case 'enum':
      return { ...common, kind: 'enum', values: Object.values(def.entries ?? {}) };
    case 'literal':
      return { ...common, kind: 'enum', values: (def.values ?? []) as (string | number)[] };
    case 'array':
      return {
        ...common,
        kind: 'array',
        element: describeSchema(def.element!, `${path}[]`),
        minLength: Math.max(0, ...checks.filter((check) => check.check === 'min_length').map((check) => check.minimum!)),
        maxLength: smallest(checks.filter((check) => check.check === 'max_length').map((check) => check.maximum!)),
      };
    case 'union':
      return { ...common, kind: 'union', options: (def.options ?? []).map((option, index) => describeSchema(option, `${path}|${index}`)) };
    case 'pipe': {
      // email = string().trim().max().pipe(z.email()): the input side carries length, the output side the format.
      const input = describeSchema(def.in!, path);
      const output = def.out!._zod.def.type === 'transform' ? null : describeSchema(def.out!, path);
      if (input.kind === 'string' && output?.kind === 'string') {
        return { ...input, ...common, format: output.format ?? input.format, patterns: [...input.patterns, ...output.patterns] };
      }
      return { ...input, ...common };
    }
    case 'transform':
      return { ...common, kind: 'transform' };
    default:
      throw new Error(`contract-arbitraries: unsupported zod type "${def.type}" at ${path}; teach describeSchema about it`);
  }
}

const isFinite = (value: number) => Number.isFinite(value) && Math.abs(value) !== Number.MAX_VALUE;

// ---------------------------------------------------------------------------------------------
// Text that has broken systems before
// ---------------------------------------------------------------------------------------------

/**
 * Strings every text field must survive: stored and given back literally, or refused with a clear
 * 090400 naming the field, never a 5xx. Named, so a failure says which one.
 */
export const HOSTILE_TEXTS: readonly { name: string; text: string }[] = [
  { name: 'NUL character', text: 'before\u0000after' },
  { name: 'lone high surrogate', text: 'broken \ud83d text' },
  { name: 'lone low surrogate', text: 'broken \udca9 text' },
  { name: 'zero-width joiner family', text: '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466} family' },
  { name: 'zero-width space and BOM', text: 'zero\u200Bwidth\uFEFFbom' },
  { name: 'right-to-left override', text: 'invoice \u202Efdp.exe\u202C done' },
  { name: 'emoji with skin-tone modifier', text: 'thumbs \u{1F44D}\u{1F3FD} ok' },
  { name: 'combining marks (zalgo)', text: 'Z\u0351\u0352\u0357a\u0306\u0308\u0301l\u0489g\u0338o' },
  { name: 'CJK extension B (4-byte)', text: '\u{20000}\u{2A6D6}\u{2B734} 𠮷野家' },
  { name: 'traditional Chinese and full-width', text: '陳偉文 客戶 ＡＢＣ１２３' },
  { name: 'SQL tautology', text: "' or 1=1 --" },
  { name: 'SQL statement injection', text: "'; drop table customer; --" },
  { name: 'SQL LIKE wildcard percent', text: '%' },
  { name: 'SQL LIKE wildcard underscore', text: '_' },
  { name: 'backslashes', text: '\\\\%\\_\\' },
  { name: 'script tag', text: '<script>window.__pwned = 1; alert(1)</script>' },
  { name: 'img onerror', text: '<img src=x onerror="window.__pwned = 1; alert(1)">' },
  { name: 'javascript: URL', text: 'javascript:alert(document.cookie)' },
  { name: 'HTML entities', text: '&lt;b&gt; &amp; &#x3C;i&#x3E;' },
  { name: 'template and JSON look-alikes', text: '{{7*7}} ${7*7} {"code":"0"}' },
  { name: 'control characters', text: 'tab\tnew\nline\rreturn\u0007bell' },
  { name: 'non-breaking and ideographic spaces', text: '\u00A0\u3000padded\u3000\u00A0' },
];

/**
 * Text PostgreSQL can store as given: no NUL, and nothing UTF-8 cannot carry (a lone surrogate
 * does not survive the round trip). Independent of the server's own check on purpose.
 */
export const isStorableText = (text: string) => !text.includes('\u0000') && Buffer.from(text, 'utf8').toString('utf8') === text;

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

/** Field name → values worth sending there (real ids from the fixture), mixed with generated ones. */
export type Hints = Record<string, fc.Arbitrary<unknown>>;

const filterValid = (node: SchemaNode, arbitrary: fc.Arbitrary<unknown>) =>
  arbitrary.filter((value) => node.schema.safeParse(value).success);

const withModifiers = (node: SchemaNode, arbitrary: fc.Arbitrary<unknown>) =>
  node.nullable ? fc.oneof({ arbitrary, weight: 4 }, { arbitrary: fc.constant(null), weight: 1 }) : arbitrary;

function stringValid(node: Extract<SchemaNode, { kind: 'string' }>): fc.Arbitrary<unknown> {
  const max = node.maxLength ?? 200;
  if (node.format === 'email') return filterValid(node, fc.emailAddress());
  if (node.format === 'url') return filterValid(node, fc.webUrl({ withQueryParameters: true, withFragments: true }));
  if (node.patterns.length > 0) {
    return filterValid(node, fc.stringMatching(node.patterns[0]!, { size: 'small' }));
  }
  // Free text: anything, including the hostile corpus where it fits.
  const lengths = { minLength: node.minLength, maxLength: Math.min(max, 60) };
  return filterValid(
    node,
    fc.oneof(
      fc.string({ ...lengths, unit: 'grapheme' }),
      fc.string({ ...lengths, unit: 'binary' }),
      fc.constantFrom(...HOSTILE_TEXTS.map((entry) => entry.text)),
    ),
  );
}

function numberValid(node: Extract<SchemaNode, { kind: 'number' }>): fc.Arbitrary<unknown> {
  const min = isFinite(node.min) ? node.min : -1e12;
  const max = isFinite(node.max) ? node.max : 1e12;
  return node.integer
    ? fc.oneof(fc.integer({ min, max: Math.min(max, min + 1000) }), fc.integer({ min, max }))
    : filterValid(node, fc.double({ min, max, noNaN: true, noDefaultInfinity: true }));
}

export function validArbitrary(node: SchemaNode, hints: Hints = {}): fc.Arbitrary<unknown> {
  switch (node.kind) {
    case 'object': {
      const model = Object.fromEntries(
        Object.entries(node.fields).map(([key, field]) => {
          const generic = withModifiers(field, validArbitrary(field, hints));
          const hint = hints[key];
          return [key, hint ? fc.oneof({ arbitrary: hint, weight: 3 }, { arbitrary: generic, weight: 1 }) : generic];
        }),
      );
      const requiredKeys = Object.entries(node.fields)
        .filter(([, field]) => !field.optional)
        .map(([key]) => key);
      return filterValid(node, fc.record(model, { requiredKeys }));
    }
    case 'string':
      return stringValid(node);
    case 'number':
      return numberValid(node);
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...node.values);
    case 'array':
      return filterValid(
        node,
        fc.uniqueArray(validArbitrary(node.element, hints), {
          minLength: node.minLength,
          maxLength: Math.min(node.maxLength ?? 10, 10),
          selector: (value) => (typeof value === 'string' ? value.trim() : JSON.stringify(value)),
        }),
      );
    case 'union':
      return fc.oneof(...node.options.map((option) => validArbitrary(option, hints)));
    case 'transform':
      return fc.anything();
  }
}

/** Values on the edge of each rule: the shortest and longest strings, the extreme numbers, empty and full arrays. */
export function boundaryArbitrary(node: SchemaNode, hints: Hints = {}): fc.Arbitrary<unknown> {
  const edges = (candidates: unknown[]) => {
    const valid = candidates.filter((value) => node.schema.safeParse(value).success);
    return valid.length > 0 ? fc.constantFrom(...valid) : validArbitrary(node, hints);
  };
  switch (node.kind) {
    case 'object': {
      const model = Object.fromEntries(
        Object.entries(node.fields).map(([key, field]) => [
          key,
          fc.oneof({ arbitrary: boundaryArbitrary(field, hints), weight: 3 }, { arbitrary: validArbitrary(field, hints), weight: 1 }),
        ]),
      );
      const requiredKeys = Object.entries(node.fields)
        .filter(([, field]) => !field.optional)
        .map(([key]) => key);
      // Not filtered: a boundary object may break a cross-field rule (dateFrom after dateTo); safeParse judges later.
      return fc.record(model, { requiredKeys });
    }
    case 'string': {
      if (node.patterns.length > 0 || node.format) {
        // A pattern decides the shape; the edges are its shortest and longest matches.
        const pattern = node.patterns[0];
        const longest = pattern ? fc.stringMatching(pattern, { size: 'large' }) : validArbitrary(node, hints);
        return fc.oneof(filterValid(node, longest), validArbitrary(node, hints));
      }
      const max = node.maxLength ?? 1000;
      const min = Math.max(node.minLength, 1);
      return edges([
        '',
        'a'.repeat(min),
        'x'.repeat(max),
        // Code units, not characters, are what max counts: surrogate pairs fill it at half the characters.
        '\u{20000}'.repeat(Math.floor(max / 2)),
        '\u{1F44D}\u{1F3FD}'.repeat(Math.floor(max / 4)),
        `${' '.repeat(max)}a${' '.repeat(max)}`,
        `${'é'.repeat(max - 1)}!`,
        ' '.repeat(max + 5),
      ]);
    }
    case 'number': {
      const candidates = [node.min, node.max, 0, 1, -1];
      if (node.integer) candidates.push(node.min + 1, node.max - 1);
      else candidates.push(node.min + 0.01, node.max - 0.01, 0.005, 1e-9);
      return edges(candidates.filter((value) => Number.isFinite(value)));
    }
    case 'array': {
      const element = validArbitrary(node.element, hints);
      const selector = (value: unknown) => (typeof value === 'string' ? value.trim() : JSON.stringify(value));
      const full = node.maxLength ?? 100;
      return fc.oneof(
        edges([[]]),
        filterValid(node, fc.uniqueArray(element, { minLength: full, maxLength: full, selector })),
        filterValid(
          node,
          fc.uniqueArray(element, { minLength: Math.max(1, node.minLength), maxLength: Math.max(1, node.minLength), selector }),
        ),
      );
    }
    default:
      return validArbitrary(node, hints);
  }
}

/** Values of the wrong type or breaking a rule of `node`. Some may happen to be valid; callers judge with safeParse. */
export function malformedValueArbitrary(node: SchemaNode): fc.Arbitrary<unknown> {
  const wrongTypes: unknown[] = [{}, [], { nested: { deep: [1] } }, true];
  if (!node.nullable) wrongTypes.push(null);
  switch (node.kind) {
    case 'string': {
      const max = node.maxLength ?? 1000;
      const breaking: unknown[] = [12345, -1, 0, ...wrongTypes, ['a', 'b'], 'x'.repeat(max + 1), `${'y'.repeat(max * 3)}z`];
      if (node.minLength > 0) breaking.push('', '   ', '\t\n');
      if (node.patterns.length > 0 || node.format) breaking.push('not valid!', '../../etc/passwd', "' or 1=1 --", 'UPPER lower 123 @@@');
      return fc.oneof(fc.constantFrom(...breaking), fc.string({ unit: 'binary', maxLength: 30 }));
    }
    case 'number': {
      const breaking: unknown[] = [
        '12',
        '1e400',
        'NaN',
        'Infinity',
        '-Infinity',
        '-0',
        '0x1F',
        ' 7 ',
        '7abc',
        '',
        1e308,
        -1e308,
        2 ** 53 + 2,
        -(2 ** 53) - 2,
        -1,
        -(2 ** 31),
        2 ** 63,
        Number.MIN_VALUE,
        1.5,
        ...wrongTypes,
        [1, 2],
      ];
      if (isFinite(node.max)) breaking.push(node.max + (node.integer ? 1 : 1e-3), node.max * 10);
      if (isFinite(node.min)) breaking.push(node.min - (node.integer ? 1 : 1e-3));
      return fc.oneof(fc.constantFrom(...breaking), fc.double(), fc.integer({ min: -(2 ** 31), max: 0 }));
    }
    case 'boolean':
      return fc.constantFrom('true', 'false', 1, 0, 'yes', '', 'TRUE', ...wrongTypes);
    case 'enum':
      return fc.oneof(
        fc.constantFrom(
          ...node.values.flatMap((value) => [String(value).toLowerCase(), String(value).toUpperCase(), ` ${String(value)}`]),
          '',
          'OTHER',
          0,
          ...wrongTypes,
          [node.values[0]],
        ),
        fc.string({ maxLength: 12 }),
      );
    case 'array': {
      const max = node.maxLength ?? 100;
      return fc.oneof(
        fc.constantFrom('x', 1, {}, ...(node.nullable ? [] : [null]), [null], [[[]]], [{}]),
        fc.array(malformedValueArbitrary(node.element), { minLength: 1, maxLength: 3 }),
        fc.array(validArbitrary(node.element), { minLength: max + 1, maxLength: max + 3 }),
      );
    }
    case 'object':
      return fc.constantFrom('x', 1, [], ...(node.nullable ? [] : [null]), [{}]);
    case 'union':
      return fc.constantFrom('maybe', 2, -1, '', ...wrongTypes);
    case 'transform':
      return fc.anything();
  }
}

/** A request object that breaks the schema somewhere: one field, an unknown key, a missing key, or the whole shape. */
export function malformedArbitrary(node: SchemaNode, hints: Hints = {}): fc.Arbitrary<unknown> {
  if (node.kind !== 'object') return malformedValueArbitrary(node);
  const keys = Object.keys(node.fields);
  const valid = validArbitrary(node, hints) as fc.Arbitrary<Record<string, unknown>>;
  const variants: fc.Arbitrary<unknown>[] = [
    fc.constantFrom([], 'text', 42, null, true, [{}]),
    fc
      .tuple(
        valid,
        fc.oneof(fc.constantFrom('__unknown', 'constructor', 'toString', 'customerID', ''), fc.string({ minLength: 1, maxLength: 12 })),
      )
      .filter(([, key]) => !keys.includes(key))
      .map(([value, key]) => ({ ...value, [key]: 1 })),
  ];
  if (keys.length > 0) {
    variants.push(
      fc
        .tuple(valid, fc.constantFrom(...keys))
        .chain(([value, key]) => malformedValueArbitrary(node.fields[key]!).map((bad) => ({ ...value, [key]: bad }))),
    );
    const required = keys.filter((key) => !node.fields[key]!.optional);
    if (required.length > 0) {
      variants.push(
        fc.tuple(valid, fc.constantFrom(...required)).map(([value, key]) => {
          const copy = { ...value };
          delete copy[key];
          return copy;
        }),
      );
    }
  }
  return fc.oneof(...variants);
}

// ---------------------------------------------------------------------------------------------
// Requests on the wire
// ---------------------------------------------------------------------------------------------

/** What the generator meant to send: a value that should pass the schema, one on its edges, or a broken one. */
export type Intent = 'valid' | 'boundary' | 'malformed' | 'raw';

export interface WireRequest {
  intent: Intent;
  /** The value before encoding (for reports). */
  input: unknown;
  /** `?…` without the question mark, or empty. */
  query: string;
  body?: string | FormData | Uint8Array;
  contentType?: string;
  /**
   * What the server's parser will hand the schema (query strings come out as strings and arrays of
   * strings; JSON loses NaN and undefined). `undefined` when it cannot be known in advance.
   */
  decoded: unknown;
}

const scalarText = (value: unknown) =>
  typeof value === 'string' ? value : value === null || typeof value !== 'object' ? String(value) : JSON.stringify(value);

/** Encodes `input` as query pairs the way a browser would; repeated keys for arrays. */
function queryPairs(input: unknown): [string, string][] {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return [['value', scalarText(input)]];
  const pairs: [string, string][] = [];
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) pairs.push([key, scalarText(item)]);
    else pairs.push([key, scalarText(value)]);
  }
  return pairs;
}

/** Repeated keys become arrays, as Fastify's query parser and @fastify/multipart do. */
function groupPairs(pairs: [string, string][]): Record<string, string | string[]> {
  // A Map, not an object: a key like `constructor` must not find Object.prototype's.
  const grouped = new Map<string, string | string[]>();
  for (const [key, value] of pairs) {
    const existing = grouped.get(key);
    grouped.set(key, existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value]);
  }
  return Object.fromEntries(grouped);
}

/**
 * A generated value as the endpoint's payload kind carries it. Not the contract's `encodeRequest`: a
 * generated value need not be an object (nor its fields scalars), and what the server decodes is predicted.
 */
function generatedRequest(endpoint: Endpoint, intent: Intent, input: unknown): WireRequest {
  switch (endpoint.payload) {
    case 'query': {
      const pairs = queryPairs(input);
      return { intent, input, query: new URLSearchParams(pairs).toString(), decoded: groupPairs(pairs) };
    }
    case 'json': {
      const body = JSON.stringify(input) ?? 'null';
      return { intent, input, query: '', body, contentType: 'application/json', decoded: JSON.parse(body) as unknown };
    }
    case 'form': {
      const form = new FormData();
      const pairs = queryPairs(input);
      for (const [key, value] of pairs) form.append(key, value);
      return { intent, input, query: '', body: form, decoded: groupPairs(pairs) };
    }
    case 'none':
      return { intent, input, query: '', decoded: undefined };
  }
}

/** Query strings no encoder produces: broken escapes, bracket syntax, NULs, keys without values. */
const RAW_QUERIES = [
  '%',
  '%zz',
  '%E0%A4%A',
  'a[b]=1',
  'x[]=1&x[]=2',
  '=1',
  '&&&',
  'x=%00',
  '%00=1',
  '__proto__=1',
  'constructor[prototype][x]=1',
];
/** Bodies no encoder produces: broken, deep, prototype-poisoning, duplicate keys. */
const RAW_BODIES = [
  '{"broken": ',
  '',
  'null',
  '{"__proto__": {"polluted": true}}',
  '{"constructor": {"prototype": {"polluted": true}}}',
  '{"a": 1, "a": 2}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  '\uFEFF{}',
  '{"x": 1e999999}',
  '{"x": "\\ud800"}',
];

const utf8Bytes = (...parts: (string | number[])[]) =>
  Uint8Array.from(parts.flatMap((part) => (typeof part === 'string' ? [...Buffer.from(part, 'utf8')] : part)));

/** JSON that is not UTF-8 (issue 17.6): refused naming the field, never stored as U+FFFD. */
const RAW_BYTES: Uint8Array[] = [
  utf8Bytes('{"x": "a', [0xff], '"}'),
  utf8Bytes('{"x": "', [0xc0, 0xaf], '"}'),
  utf8Bytes('{"x": "', [0xed, 0xa0, 0x80], '"}'),
  utf8Bytes('{"', [0xfe], '": 1}'),
  utf8Bytes('{"x": "', [0xe4, 0xb8]),
];

const formOf = (boundary: string, body: string) => ({
  body: body.replaceAll('{b}', boundary),
  contentType: `multipart/form-data; boundary=${boundary}`,
});
/** Forms no encoder produces (issue 17.6): over-long, missing or foreign boundary, truncated, a file, too many fields. */
const RAW_FORMS: { body: string; contentType: string }[] = [
  formOf('b'.repeat(300), '--{b}\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n--{b}--\r\n'),
  formOf('b'.repeat(71), '--{b}\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n--{b}--\r\n'),
  { body: '--x\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n--x--\r\n', contentType: 'multipart/form-data' },
  formOf('x', '--{b}\r\nContent-Disposition: form-data; name="x"\r\n\r\ntr'),
  formOf('x', '--other\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n--other--\r\n'),
  formOf('x', '--{b}\r\nContent-Disposition: form-data; name="x"; filename="a.txt"\r\n\r\n1\r\n--{b}--\r\n'),
  formOf('x', `${'--{b}\r\nContent-Disposition: form-data; name="f"\r\n\r\n1\r\n'.repeat(20)}--{b}--\r\n`),
  formOf('x', `--{b}\r\nContent-Disposition: form-data; name="x"\r\n\r\n${'1'.repeat(4000)}\r\n--{b}--\r\n`),
];

/** Every kind of request for one endpoint: valid, boundary and malformed values, and raw wire oddities. */
export function requestArbitrary(endpoint: Endpoint, hints: Hints = {}): fc.Arbitrary<WireRequest> {
  const node = describeSchema(endpoint.request);
  const encode = (intent: Intent) => (input: unknown) => generatedRequest(endpoint, intent, input);
  const raw: fc.Arbitrary<WireRequest> =
    endpoint.payload === 'query' || endpoint.payload === 'none'
      ? fc.constantFrom(...RAW_QUERIES).map((query) => ({ intent: 'raw' as const, input: query, query, decoded: undefined }))
      : fc
          .constantFrom<{ body: string | Uint8Array; contentType: string }>(
            ...RAW_BODIES.map((body) => ({ body, contentType: 'application/json' })),
            ...(endpoint.payload === 'form' ? RAW_FORMS : RAW_BYTES.map((body) => ({ body, contentType: 'application/json' }))),
          )
          .map(({ body, contentType }) => ({
            intent: 'raw' as const,
            input: typeof body === 'string' ? body : Buffer.from(body).toString('latin1'),
            query: '',
            body,
            contentType,
            decoded: undefined,
          }));
  return fc.oneof(
    { arbitrary: validArbitrary(node, hints).map(encode('valid')), weight: 3 },
    { arbitrary: boundaryArbitrary(node, hints).map(encode('boundary')), weight: 2 },
    { arbitrary: malformedArbitrary(node, hints).map(encode('malformed')), weight: 4 },
    { arbitrary: raw, weight: 1 },
  );
}

/** Does the schema accept what the server will see? `undefined` when that cannot be known in advance. */
export function acceptedBySchema(endpoint: Endpoint, request: WireRequest): boolean | undefined {
  if (request.intent === 'raw' || endpoint.payload === 'none') return undefined;
  return endpoint.request.safeParse(request.decoded).success;
}
