import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runnerImport, type Plugin } from 'vite';
import { z } from 'zod';

/**
 * `virtual:broker-contract-wire`: what the browser needs of `packages/contract` at run time, without zod.
 *
 * Every contract endpoint is an object holding zod schemas, so importing one pulls zod's classic API
 * (not tree-shakable; size: ADR 0029) and every schema of the contract into the first screen. The browser
 * does not need them to call the API: the server validates every request and serializes every response
 * through the same schemas. So this module, computed from the contract at build time, carries only
 * each endpoint's wire description (method, path, agent, auth, payload, silent), the contract's plain
 * constants (error codes, headers, defaults…), and the values of its enums and the patterns of its
 * regex-only string schemas, under `<name>Values` / `<name>Pattern`. Its types
 * (`src/shared/api/contract-wire.d.ts`) are taken from the contract itself, so the two cannot drift.
 */
export const CONTRACT_WIRE_ID = 'virtual:broker-contract-wire';
const RESOLVED_ID = `\0${CONTRACT_WIRE_ID}`;
/**
 * `virtual:broker-contract-responses`: every endpoint's response schema as JSON Schema (z.toJSONSchema of
 * the contract's own schema), keyed `METHOD path`, for `src/shared/api/response-check.ts`. The request
 * layer loads it lazily, beside the first call, so it is not first-screen JavaScript (ADR 0023).
 */
export const CONTRACT_RESPONSES_ID = 'virtual:broker-contract-responses';
const RESOLVED_RESPONSES_ID = `\0${CONTRACT_RESPONSES_ID}`;

const contractSrc = fileURLToPath(new URL('../../../packages/contract/src/', import.meta.url));
const WIRE_FIELDS = ['method', 'path', 'agent', 'auth', 'payload', 'silent'] as const;

interface ZodLike {
  _zod: { def: { type: string; checks?: { _zod: { def: { format?: string; pattern?: RegExp } } }[] } };
  options?: readonly unknown[];
}
const isSchema = (value: unknown): value is ZodLike => typeof value === 'object' && value !== null && '_zod' in value;

/** Strings, numbers, booleans, null, and arrays / plain objects of those: safe to inline as JSON. */
function isPlainData(value: unknown): boolean {
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return true;
  if (Array.isArray(value)) return value.every(isPlainData);
  if (typeof value !== 'object' || isSchema(value) || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value).every(isPlainData);
}

/** The single regex of a string schema such as corpCodeSchema, if that is all it checks. */
function regexOf(schema: ZodLike): RegExp | undefined {
  const checks = schema._zod.def.checks ?? [];
  if (schema._zod.def.type !== 'string' || checks.length !== 1) return undefined;
  const check = checks[0]!._zod.def;
  return check.format === 'regex' ? check.pattern : undefined;
}

const importContract = async () =>
  (await runnerImport<Record<string, unknown>>(join(contractSrc, 'index.ts'), { configFile: false, logLevel: 'silent' })).module;

/**
 * The JSON Schema keywords the browser's checker (src/shared/api/response-check.ts) understands. A
 * contract change that makes z.toJSONSchema write any other fails the build, rather than going unchecked.
 */
export const CHECKED_KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'propertyNames',
  'items',
  'enum',
  'const',
  'anyOf',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
]);

/** Keywords that only describe or annotate: dropped, so they cost no bytes. */
const DROPPED_KEYWORDS = new Set([
  '$schema',
  'description',
  'title',
  'examples',
  'default',
  'format',
  'readOnly',
  'writeOnly',
  'deprecated',
]);

/**
 * One response schema as the browser checks it: unknown keys are accepted (zod's z.object strips them
 * rather than failing, and a newer server may add a field), annotations dropped, anything else refused.
 */
function checkable(schema: unknown, at: string): unknown {
  if (Array.isArray(schema)) return schema.map((item, index) => checkable(item, `${at}[${index}]`));
  if (typeof schema !== 'object' || schema === null) return schema;
  const kept: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (DROPPED_KEYWORDS.has(keyword) || (keyword === 'additionalProperties' && value === false)) continue;
    if (!CHECKED_KEYWORDS.has(keyword))
      throw new Error(
        `contract-wire: ${at} uses the JSON Schema keyword "${keyword}", which src/shared/api/response-check.ts does not check`,
      );
    if (keyword === 'properties') {
      kept[keyword] = Object.fromEntries(
        Object.entries(value as object).map(([name, property]) => [name, checkable(property, `${at}.${name}`)]),
      );
    } else if (keyword === 'enum' || keyword === 'const' || keyword === 'required') kept[keyword] = value;
    else kept[keyword] = checkable(value, `${at}.${keyword}`);
  }
  return kept;
}

/** `{ "METHOD path": JSON Schema of the response }` for every endpoint of the contract. */
export async function generateContractResponses(): Promise<string> {
  const contract = await importContract();
  const schemas: Record<string, unknown> = {};
  for (const [name, endpoint] of Object.entries(
    contract.endpoints as Record<string, { method: string; path: string; response: z.ZodType }>,
  )) {
    const key = `${endpoint.method} ${endpoint.path}`;
    if (key in schemas) throw new Error(`contract-wire: two endpoints answer ${key}`);
    // What the server sends is the schema's output, serialized as JSON.
    schemas[key] = checkable(z.toJSONSchema(endpoint.response, { io: 'output', unrepresentable: 'throw' }), name);
  }
  return `export const responseSchemas = ${JSON.stringify(schemas)};\n`;
}

export async function generateContractWire(): Promise<string> {
  const contract = await importContract();
  const lines: string[] = [];
  const endpoints = contract.endpoints as Record<string, Record<string, unknown>>;
  const wire = Object.fromEntries(
    Object.entries(endpoints).map(([name, endpoint]) => [
      name,
      Object.fromEntries(WIRE_FIELDS.filter((field) => endpoint[field] !== undefined).map((field) => [field, endpoint[field]])),
    ]),
  );
  lines.push(`export const endpoints = ${JSON.stringify(wire)};`);
  for (const [name, value] of Object.entries(contract)) {
    if (name === 'endpoints') continue;
    if (isPlainData(value)) lines.push(`export const ${name} = ${JSON.stringify(value)};`);
    else if (isSchema(value) && name.endsWith('Schema')) {
      const base = name.slice(0, -'Schema'.length);
      const regex = regexOf(value);
      if (value._zod.def.type === 'enum' && value.options) lines.push(`export const ${base}Values = ${JSON.stringify(value.options)};`);
      else if (regex)
        lines.push(`export const ${base}Pattern = new RegExp(${JSON.stringify(regex.source)}, ${JSON.stringify(regex.flags)});`);
    }
  }
  return `${lines.join('\n')}\n`;
}

export function contractWire(): Plugin {
  return {
    name: 'broker-contract-wire',
    resolveId: (id) => (id === CONTRACT_WIRE_ID ? RESOLVED_ID : id === CONTRACT_RESPONSES_ID ? RESOLVED_RESPONSES_ID : undefined),
    async load(id) {
      if (id !== RESOLVED_ID && id !== RESOLVED_RESPONSES_ID) return undefined;
      // In `vite dev` an edit to the contract regenerates the module.
      for (const file of readdirSync(contractSrc, { recursive: true, encoding: 'utf8' })) {
        if (file.endsWith('.ts')) this.addWatchFile(join(contractSrc, file));
      }
      return id === RESOLVED_ID ? generateContractWire() : generateContractResponses();
    },
  };
}
