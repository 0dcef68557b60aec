import fc from 'fast-check';

interface ZodCheck {
  check: string;
  minimum?: number;
  maximum?: number;
  value?: number;
  inclusive?: boolean;
  format?: string;
  pattern?: RegExp;
}
/** zod 4's own description of a schema (`schema._zod.def`), as far as the contract's responses use it. */
interface ZodDef {
  type: string;
  checks?: { _zod: { def: ZodCheck } }[];
  innerType?: ZodSchema;
  element?: ZodSchema;
  keyType?: ZodSchema;
  valueType?: ZodSchema;
  shape?: Record<string, ZodSchema>;
  options?: ZodSchema[];
  entries?: Record<string, string | number>;
  values?: unknown[];
}
interface ZodSchema {
  _zod: { def: ZodDef };
  safeParse(value: unknown): { success: boolean };
}

/**
 * Data a contract schema accepts, read off the zod schema itself (not the JSON Schema the browser checks
 * with): optional keys come and go, nullable values are sometimes null, strings follow their pattern and
 * refinements. A zod type not taught here fails loudly instead of being skipped.
 */
export function validData(zodSchema: { safeParse(value: unknown): unknown }, path = 'data'): fc.Arbitrary<unknown> {
  const schema = zodSchema as ZodSchema;
  const def = schema._zod.def;
  const checks = (def.checks ?? []).map((check) => check._zod.def);
  const find = (name: string) => checks.find((check) => check.check === name);
  switch (def.type) {
    case 'optional':
      return fc.option(validData(def.innerType!, path), { nil: undefined });
    case 'nullable':
      return fc.option(validData(def.innerType!, path), { nil: null });
    case 'object': {
      const shape = def.shape ?? {};
      const fields = Object.entries(shape).map(([key, field]) => [key, validData(field, `${path}.${key}`)] as const);
      const requiredKeys = Object.keys(shape).filter((key) => shape[key]!._zod.def.type !== 'optional');
      return fc.record(Object.fromEntries(fields), { requiredKeys });
    }
    case 'array':
      return fc.array(validData(def.element!, `${path}[]`), { minLength: find('min_length')?.minimum ?? 0, maxLength: 3 });
    case 'record':
      return fc.dictionary(validData(def.keyType!, `${path} key`) as fc.Arbitrary<string>, validData(def.valueType!, `${path}[key]`), {
        maxKeys: 3,
      });
    case 'union':
      return fc.oneof(...def.options!.map((option) => validData(option, path)));
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries!));
    case 'literal':
      return fc.constantFrom(...def.values!);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'unknown':
      return fc.jsonValue();
    case 'number': {
      const above = find('greater_than');
      if (find('number_format')?.format?.includes('int')) {
        const min = above ? above.value! + (above.inclusive ? 0 : 1) : Number.MIN_SAFE_INTEGER;
        return fc.integer({ min, max: Number.MAX_SAFE_INTEGER });
      }
      return fc.double({ noNaN: true, noDefaultInfinity: true, ...(above ? { min: above.value!, minExcluded: !above.inclusive } : {}) });
    }
    case 'string': {
      const pattern = find('string_format')?.pattern;
      const minLength = find('min_length')?.minimum ?? 0;
      const maxLength = find('max_length')?.maximum;
      const text = pattern
        ? fc.stringMatching(pattern).filter((value) => value.length >= minLength && value.length <= (maxLength ?? Infinity))
        : fc.string({ minLength, maxLength: maxLength ?? minLength + 20 });
      // A refinement (a real calendar day) is the schema's own to judge.
      return find('custom') ? text.filter((value) => schema.safeParse(value).success) : text;
    }
    default:
      throw new Error(`validData: zod type "${def.type}" at ${path} is not taught here`);
  }
}
