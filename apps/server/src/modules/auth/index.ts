export { default as authPlugin } from './auth.plugin';
export * from './auth.routes';
export { carriesOwnSignInState } from './session-cookies';
export { sameSecret } from './session-token';
