export * from './callback.routes';
