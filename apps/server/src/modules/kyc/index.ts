export * from './kyc.routes';
