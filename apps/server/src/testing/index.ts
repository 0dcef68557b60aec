export { startTestApp, signInAs, type RunningTestApp, type SignedIn } from './test-app';
export { testDatabases, type TestDatabase } from './test-databases';
