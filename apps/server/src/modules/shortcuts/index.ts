// The module's public face: app.ts and other modules import only from here (eslint boundaries).
export * from './shortcuts.routes';
