export * from './audit.routes';
