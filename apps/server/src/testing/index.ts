/**
 * What the suites share. Call the API through `apiClient(target, caller)`: one method per endpoint of
 * the contract (`endpoints`), its input typed by the request schema and its answer `{ status, headers,
 * body, text }` with `body.data` typed by the response schema once `expectOk(answer)` or `isOk` has
 * seen code "0"; `client.ok.<endpoint>(input)` resolves the data directly and throws naming the code
 * otherwise. The target is a running app's base URL (real HTTP, also another process) or a Fastify
 * app (inject). The caller is a `signInAs` result (its corp, token and cookie) or `{ corp, agent,
 * token, cookies, headers }`; each call names the endpoint's own app and carries its payload the way
 * the web does (query, JSON, multipart form, nothing). Tests that must send something wrong use
 * `client.call(endpoint, anyInput)` or `client.raw(endpoint | path, { method, query, body,
 * contentType })` rather than a fetch of their own, so a request is built in one place.
 */
export { startTestApp, signInAs, startSignInAt, authorizeAs, exchangeCode, type RunningTestApp, type SignedIn } from './test-app';
export { BrowserJar } from './browser-jar';
export { testDatabases, pgliteTestDatabase, type TestDatabase } from './test-databases';
export { seededStaff, customerIdsOf } from './seeded-staff';
export { startTwoReplicas } from './replicas';
export { TEST_HEALTH_DETAIL_TOKEN, healthDetailHeaders } from './health-detail';
export { startServerProcess, startEmulatorProcess, type ServerProcess, type EmulatorProcess } from './server-process';
export { DEBIAN_CHROMIUM_FLAGS, DEBIAN_CHROMIUM_PATH, debianChromiumMissing } from './debian-chromium';
export {
  apiClient,
  expectOk,
  isOk,
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
