import { responseSchemas, type ResponseSchema } from 'virtual:broker-contract-responses';

/**
 * Checks a response's `data` against the contract (STYLE.md rule 1) without zod in the browser, walking the JSON Schema the build
 * compiled; it names the first difference (`data.rows[3].totalAssetsHkd: expected number`). Unknown keys pass, as with z.object.
 * Loaded with the first call, not on the first screen (ADR 0023).
 */
export function responseMismatch(endpoint: { method: string; path: string }, data: unknown): string | undefined {
  const schema = responseSchemas[`${endpoint.method} ${endpoint.path}`];
  return schema ? mismatchIn(schema, data, 'data') : `${endpoint.method} ${endpoint.path} is not an endpoint of the contract`;
}

const patterns = new Map<string, RegExp>();
const patternOf = (source: string) => {
  let pattern = patterns.get(source);
  if (!pattern) patterns.set(source, (pattern = new RegExp(source)));
  return pattern;
};

function isType(type: string, value: unknown): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'integer':
      return Number.isInteger(value);
    default:
      return typeof value === type;
  }
}

const show = (value: unknown) => JSON.stringify(value) ?? String(value);

/** Where `value` first differs from `schema` (a path from `at`, and what was expected), or undefined. */
export function mismatchIn(schema: ResponseSchema, value: unknown, at: string): string | undefined {
  if (schema.anyOf) {
    const misses = schema.anyOf.map((option) => mismatchIn(option, value, at));
    if (misses.includes(undefined)) return undefined;
    return misses.join(' / ');
  }
  if (schema.type !== undefined) {
    const types = typeof schema.type === 'string' ? [schema.type] : schema.type;
    if (!types.some((type) => isType(type, value))) return `${at}: expected ${types.join(' or ')}, got ${show(value)}`;
  }
  if (schema.enum && !schema.enum.includes(value)) return `${at}: expected one of ${show(schema.enum)}, got ${show(value)}`;
  if ('const' in schema && value !== schema.const) return `${at}: expected ${show(schema.const)}, got ${show(value)}`;
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength) return `${at}: shorter than ${schema.minLength}`;
    if (schema.maxLength !== undefined && value.length > schema.maxLength) return `${at}: longer than ${schema.maxLength}`;
    if (schema.pattern !== undefined && !patternOf(schema.pattern).test(value)) return `${at}: does not match /${schema.pattern}/`;
  } else if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) return `${at}: below ${schema.minimum}`;
    if (schema.maximum !== undefined && value > schema.maximum) return `${at}: above ${schema.maximum}`;
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) return `${at}: not above ${schema.exclusiveMinimum}`;
    if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum) return `${at}: not below ${schema.exclusiveMaximum}`;
  } else if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) return `${at}: fewer than ${schema.minItems} items`;
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return `${at}: more than ${schema.maxItems} items`;
    if (schema.items) {
      for (let index = 0; index < value.length; index++) {
        const miss = mismatchIn(schema.items, value[index], `${at}[${index}]`);
        if (miss) return miss;
      }
    }
  } else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    for (const key of schema.required ?? []) if (!(key in record)) return `${at}.${key}: missing`;
    for (const [key, item] of Object.entries(record)) {
      const property = schema.properties?.[key];
      const miss =
        (schema.propertyNames && mismatchIn(schema.propertyNames, key, `${at} key ${show(key)}`)) ??
        (property
          ? mismatchIn(property, item, `${at}.${key}`)
          : schema.additionalProperties && mismatchIn(schema.additionalProperties, item, `${at}.${key}`));
      if (miss) return miss;
    }
  }
  return undefined;
}
