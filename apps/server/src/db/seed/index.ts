export {
  seedDemoData,
  clearCustomerData,
  hasCustomers,
  SeedRefusedError,
  CUSTOMER_DATA_TABLES,
  type SeedOptions,
  type SeedResult,
} from './seed-demo-data';
export { DEMO_STAFF, LATEST_RATES, SECURITIES } from './reference-data';
export { SEED_TABLES } from './customer-generator';
export { seedDemoDataIfEmpty, type DemoSeedOptions } from './seed-on-start';
