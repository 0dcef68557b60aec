export * from './health.routes';
