export * from './client.routes';
