export { motRoutes } from './mot.routes';
export { insertMotEvents, runMotRules, runMotForCustomers, type MotRunResult } from './mot-engine';
export { runDailyMotSweep, startMotScheduler, type MotScheduler, type MotSweepOutcome } from './mot-sweep';
export { MOT_THRESHOLDS } from './mot-thresholds';
export { eventRanking } from './mot-rank';
