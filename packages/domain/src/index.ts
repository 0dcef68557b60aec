export * from './client-name';
export * from './hong-kong-calendar';
export * from './money';
export * from './masking';
export * from './phone-number';
