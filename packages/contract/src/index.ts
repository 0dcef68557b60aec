import './zod-messages';
export * from './error-codes';
export * from './envelope';
export * from './headers';
export {
  encodeRequest,
  requestHeaders,
  queryStringOf,
  type EncodableEndpoint,
  type EncodedRequest,
  type RequestCaller,
} from './request-encoding';
export * from './endpoint';
export * from './common';
export * from './endpoints/auth';
export * from './endpoints/wecom';
export * from './endpoints/staff';
export * from './endpoints/settings';
export * from './endpoints/customer';
export * from './endpoints/manage';
export * from './endpoints/shortcuts';
export * from './endpoints/kyc';
export * from './endpoints/mot';
export * from './endpoints/mot-rank';
export * from './endpoints/mot-push';
export * from './endpoints/audit';
export * from './endpoints/contact';
export * from './endpoints/timeline';
export { contract, endpoints, type AreaName, type Contract, type EndpointName } from './registry';
export * from './wecom-callback';
