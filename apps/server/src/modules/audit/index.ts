export * from './audit.routes';
export { auditEntry } from './audit.repository';
