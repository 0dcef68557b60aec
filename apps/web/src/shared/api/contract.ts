import type { Endpoint, RequestOf as ContractRequestOf, ResponseOf as ContractResponseOf } from '@broker/contract';
import type { WireEndpoint } from 'virtual:broker-contract-wire';

/**
 * The contract at run time for the browser, generated without zod at build time (vite-plugins/contract-wire.ts). First-screen
 * code imports values only from here; lazy pages validating with the contract's schemas import `@broker/contract` in their chunk.
 */
export {
  endpoints,
  ErrorCode,
  RELOGIN_CODES,
  DEFAULT_AGENT_CODE,
  DEFAULT_CORP_CODE,
  DEFAULT_CURRENCY,
  agentCodeValues,
  currencyValues,
  marketValues,
  customerStatusValues,
  serviceChannelValues,
  MOT_RULES,
  SERVICE_OUTCOME_CODES,
  SERVICE_OUTCOME_WORDS,
  TIMELINE_KINDS,
  TIMELINE_DEFAULT_KINDS,
  MAX_PINNED_CLIENTS,
  MAX_SAVED_FILTERS,
  corpCodePattern,
} from 'virtual:broker-contract-wire';
export type { WireEndpoint };
export type { TimelineItem, TimelineKind } from '@broker/contract';

/** The payload an endpoint takes (a wire endpoint, or a full contract endpoint in tests). */
export type RequestOf<E> = E extends Endpoint ? ContractRequestOf<E> : E extends WireEndpoint<infer C> ? ContractRequestOf<C> : never;
/** The `data` an endpoint answers with. */
export type ResponseOf<E> = E extends Endpoint ? ContractResponseOf<E> : E extends WireEndpoint<infer C> ? ContractResponseOf<C> : never;
