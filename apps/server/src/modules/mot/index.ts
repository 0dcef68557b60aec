export { motRoutes } from './mot.routes';
export { runMotRules, runMotForCustomers, type MotRunOptions, type MotRunResult } from './engine/mot-engine';
export { runDailyMotSweep, startMotScheduler, type MotScheduler, type MotSweepOutcome } from './engine/mot-sweep';
export { MOT_THRESHOLDS, hongKongDay } from './engine/mot-thresholds';
