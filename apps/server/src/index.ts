export { SERVER_ROOT } from './server-root';
export { buildApp, type BuildAppOptions } from './app';
export { loadEnv, makeEnv, loadDatabaseTarget, resolveUserPath, userDirectory, ConfigError, type DatabaseTarget, type Env } from './env';
export { openDatabase, preparedStatementName, runMigrations, type Database, type DatabaseHandle, type DatabaseKind } from './db/client';
export { DatabaseConnectionError } from './db/connection-failure';
export { PgliteDirInUseError, PGLITE_LOCK_FILE, type PgliteLockHolder } from './db/pglite-lock';
export * as schema from './db/schema';
export { seedDemoData, clearCustomerData, hasCustomers, SeedRefusedError, type SeedOptions, type SeedResult } from './db/seed';
export { maskDocument, LATEST_RATES } from './db/seed';
export { refreshCustomerSummaries } from './db/customer-summary';
export {
  runMotRules,
  runMotForCustomers,
  runDailyMotSweep,
  MOT_THRESHOLDS,
  hongKongDay,
  isCalendarDay,
  type MotRunResult,
  type MotSweepOutcome,
} from './modules/mot';
