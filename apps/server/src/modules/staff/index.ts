export * from './staff.routes';
