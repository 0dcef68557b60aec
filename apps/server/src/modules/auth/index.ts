export { default as authPlugin, type AuthPluginOptions } from './auth.plugin';
export * from './auth.routes';
export { carriesOwnSignInState } from './session-cookies';
