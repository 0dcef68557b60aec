export { startTestApp, signInAs, startSignInAt, authorizeAs, exchangeCode, type RunningTestApp, type SignedIn } from './test-app';
export { BrowserJar } from './browser-jar';
export { testDatabases, type TestDatabase } from './test-databases';
export { startServerProcess, startEmulatorProcess, type ServerProcess, type EmulatorProcess } from './server-process';
export { DEBIAN_CHROMIUM_FLAGS, DEBIAN_CHROMIUM_PATH, debianChromiumMissing } from './debian-chromium';
