export * from './shortcuts.routes';
