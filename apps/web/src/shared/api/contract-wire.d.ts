/**
 * Types of the zod-free contract the build generates (apps/web/vite-plugins/contract-wire.ts), all
 * taken from `@broker/contract` so they follow it. Import it through `shared/api/contract.ts`.
 */
declare module 'virtual:broker-contract-wire' {
  import type * as Contract from '@broker/contract';

  /** An endpoint as the browser calls it: how it travels, and (types only) the contract endpoint it is. */
  export interface WireEndpoint<E extends Contract.Endpoint = Contract.Endpoint> {
    readonly method: E['method'];
    readonly path: string;
    readonly agent: E['agent'];
    readonly auth: boolean;
    readonly payload: E['payload'];
    readonly silent?: boolean;
    /** Never present at run time: carries the request and response types. */
    readonly contract?: E;
  }

  type ContractEndpoints = typeof Contract.endpoints;
  export const endpoints: { readonly [Name in keyof ContractEndpoints]: WireEndpoint<ContractEndpoints[Name]> };

  export const ErrorCode: typeof Contract.ErrorCode;
  export const RELOGIN_CODES: typeof Contract.RELOGIN_CODES;
  export const DEFAULT_CORP_CODE: typeof Contract.DEFAULT_CORP_CODE;
  export const DEFAULT_AGENT_CODE: typeof Contract.DEFAULT_AGENT_CODE;
  export const DEFAULT_CURRENCY: typeof Contract.DEFAULT_CURRENCY;
  export const SERVICE_OUTCOME_CODES: typeof Contract.SERVICE_OUTCOME_CODES;
  export const SERVICE_OUTCOME_WORDS: typeof Contract.SERVICE_OUTCOME_WORDS;
  export const agentCodeValues: typeof Contract.agentCodeSchema.options;
  export const currencyValues: typeof Contract.currencySchema.options;
  export const marketValues: typeof Contract.marketSchema.options;
  export const customerStatusValues: typeof Contract.customerStatusSchema.options;
  export const serviceChannelValues: typeof Contract.serviceChannelSchema.options;
  export const MOT_RULES: typeof Contract.MOT_RULES;
  export const TIMELINE_KINDS: typeof Contract.TIMELINE_KINDS;
  export const TIMELINE_DEFAULT_KINDS: typeof Contract.TIMELINE_DEFAULT_KINDS;
  export const MAX_PINNED_CLIENTS: typeof Contract.MAX_PINNED_CLIENTS;
  export const MAX_SAVED_FILTERS: typeof Contract.MAX_SAVED_FILTERS;
  export const corpCodePattern: RegExp;
}

/**
 * Every endpoint's response schema as JSON Schema, keyed `METHOD path` (apps/web/vite-plugins/contract-wire.ts).
 * Loaded lazily by `src/shared/api/response-check.ts`.
 */
declare module 'virtual:broker-contract-responses' {
  /** The part of JSON Schema that z.toJSONSchema writes for the contract's responses (the build refuses any other keyword). */
  export interface ResponseSchema {
    readonly type?: string | readonly string[];
    readonly properties?: Readonly<Record<string, ResponseSchema>>;
    readonly required?: readonly string[];
    readonly additionalProperties?: ResponseSchema;
    readonly propertyNames?: ResponseSchema;
    readonly items?: ResponseSchema;
    readonly enum?: readonly unknown[];
    readonly const?: unknown;
    readonly anyOf?: readonly ResponseSchema[];
    readonly pattern?: string;
    readonly minLength?: number;
    readonly maxLength?: number;
    readonly minimum?: number;
    readonly maximum?: number;
    readonly exclusiveMinimum?: number;
    readonly exclusiveMaximum?: number;
    readonly minItems?: number;
    readonly maxItems?: number;
  }
  export const responseSchemas: Readonly<Record<string, ResponseSchema>>;
}
