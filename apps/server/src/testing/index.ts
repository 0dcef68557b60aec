export { startTestApp, signInAs, startSignInAt, authorizeAs, exchangeCode, type RunningTestApp, type SignedIn } from './test-app';
export { BrowserJar } from './browser-jar';
export { testDatabases, type TestDatabase } from './test-databases';
export { startServerProcess, startEmulatorProcess, type ServerProcess, type EmulatorProcess } from './server-process';
export { DEBIAN_CHROMIUM_FLAGS, DEBIAN_CHROMIUM_PATH, debianChromiumMissing } from './debian-chromium';
export {
  apiClient,
  expectOk,
  queryStringOf,
  type ApiAnswer,
  type ApiCaller,
  type ApiClient,
  type ApiEnvelope,
  type ApiFailure,
  type ApiSuccess,
  type ApiTarget,
  type CallOptions,
  type OkAnswer,
  type RawAnswer,
  type RawRequest,
} from './api-client';
