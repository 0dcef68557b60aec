import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runnerImport, type Plugin } from 'vite';

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
  return Object.values(value as object).every(isPlainData);
}

/** The single regex of a string schema such as corpCodeSchema, if that is all it checks. */
function regexOf(schema: ZodLike): RegExp | undefined {
  const checks = schema._zod.def.checks ?? [];
  if (schema._zod.def.type !== 'string' || checks.length !== 1) return undefined;
  const check = checks[0]!._zod.def;
  return check.format === 'regex' ? check.pattern : undefined;
}

export async function generateContractWire(): Promise<string> {
  const { module: contract } = await runnerImport<Record<string, unknown>>(join(contractSrc, 'index.ts'), {
    configFile: false,
    logLevel: 'silent',
  });
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
    resolveId: (id) => (id === CONTRACT_WIRE_ID ? RESOLVED_ID : undefined),
    async load(id) {
      if (id !== RESOLVED_ID) return undefined;
      // In `vite dev` an edit to the contract regenerates the module.
      for (const file of readdirSync(contractSrc, { recursive: true, encoding: 'utf8' })) {
        if (file.endsWith('.ts')) this.addWatchFile(join(contractSrc, file));
      }
      return generateContractWire();
    },
  };
}
