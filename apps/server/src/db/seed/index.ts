export { seedDemoData, clearCustomerData, hasCustomers, SeedRefusedError, type SeedOptions, type SeedResult } from './seed-demo-data';
export { DEMO_STAFF, LATEST_RATES } from './reference-data';
export { SEED_TABLES } from './customer-generator';
export { seedDemoDataIfEmpty } from './seed-on-start';
