export { SERVER_ROOT } from './server-root';
export { buildApp, type BuildAppOptions } from './app';
export {
  loadEnv,
  makeEnv,
  loadDatabaseTarget,
  resolveUserPath,
  userDirectory,
  ConfigError,
  SETTING_GROUPS,
  type DatabaseTarget,
  type Env,
} from './env';
export { TUNING, type Tuning } from './tuning';
export { openDatabase, preparedStatementName, runMigrations, type Database, type DatabaseHandle, type DatabaseKind } from './db/client';
export { DatabaseConnectionError } from './db/connection-failure';
export { PgliteDirInUseError, PGLITE_LOCK_FILE, type PgliteLockHolder } from './db/pglite-lock';
export * as schema from './db/schema';
export { seedDemoData, clearCustomerData, hasCustomers, SeedRefusedError, type SeedOptions, type SeedResult } from './db/seed';
export { DEMO_STAFF, LATEST_RATES, SEED_TABLES } from './db/seed';
export { refreshCustomerSummaries } from './db/customer-summary';
export { ensureMonthPartitions } from './db/partitions';
export { fillAllSearchTerms, nameReadings, searchTerms, traditionalChinese } from './db/search-terms';
export { runMotRules, runMotForCustomers, runDailyMotSweep, MOT_THRESHOLDS, type MotRunResult, type MotSweepOutcome } from './modules/mot';
export { announceSweep, dispatchMotPushes, enqueueMotPushes, type DispatchResult, type EnqueueResult } from './modules/mot-push';
