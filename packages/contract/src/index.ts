export * from './error-codes';
export * from './envelope';
export * from './headers';
export * from './endpoint';
export * from './common';
export * from './endpoints/auth';
export * from './endpoints/wecom';
export * from './endpoints/staff';
export { endpoints } from './registry';
