// The module's public face: app.ts and other modules import only from here (eslint boundaries).
export { default as authPlugin, type AuthPluginOptions } from './auth.plugin';
export * from './auth.routes';
export { carriesOwnSignInState } from './session-cookies';
