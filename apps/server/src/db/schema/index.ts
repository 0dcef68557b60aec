export * from './platform';
export * from './brokerage';
export * from './mot';
export * from './contact';
export * from './audit';
export * from './rate-limit';
export * from './wecom-callback';
export * from './mot-push';
