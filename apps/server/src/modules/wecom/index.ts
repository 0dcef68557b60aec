export * from './domain-verification.routes';
export * from './jssdk.routes';
