// Reads vitest's JSON report: fails when the browser or PostgreSQL suites or the replication process test did not run,
// and prints the plain closing line "N passed, N failed".
import { readFileSync, existsSync } from 'node:fs';

const file = process.argv[2];
if (!file || !existsSync(file)) {
  console.error(`no test report at ${file}: the test runner did not finish`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
const results = report.testResults.flatMap((suite) => suite.assertionResults.map((test) => ({ ...test, file: suite.name })));
const passed = results.filter((test) => test.status === 'passed');
const failed = results.filter((test) => test.status === 'failed');
// A file can fail outside any test (a hook, an import): count it, or the closing line would hide it.
const failedOutsideTests = report.testResults.filter(
  (suite) => suite.status === 'failed' && !suite.assertionResults.some((test) => test.status === 'failed'),
);
for (const suite of failedOutsideTests) console.error(`failed outside its tests: ${suite.name}\n${suite.message ?? ''}`);
const browser = passed.filter((test) => /[\\/]e2e[\\/]/.test(test.file));
const postgres = passed.filter((test) => /\(postgres\)/.test(test.fullName ?? test.ancestorTitles.join(' ')));
// A throw-away primary, standby and PgBouncer (ADR 0052): it may skip on a laptop without them, never in CI.
const replication = passed.filter((test) => /replication\.processes\.test\.ts$/.test(test.file));

const problems = [];
if (browser.length === 0) problems.push('the browser suite (e2e/) ran no passing test');
if (postgres.length === 0) problems.push('the PostgreSQL suite ran no passing test (is TEST_DATABASE_URL set?)');
if (replication.length === 0) problems.push('the replication process test (primary, standby, PgBouncer) did not pass');
console.log(
  `browser tests passed: ${browser.length}; PostgreSQL tests passed: ${postgres.length}; replication process test passed: ${replication.length}`,
);
for (const problem of problems) console.error(`CI check failed: ${problem}`);
const failures = failed.length + failedOutsideTests.length + problems.length;
console.log(`${passed.length} passed, ${failures} failed`);
process.exit(failures > 0 ? 1 : 0);
