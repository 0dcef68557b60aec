export * from './hong-kong-calendar';
export * from './money';
export * from './masking';
