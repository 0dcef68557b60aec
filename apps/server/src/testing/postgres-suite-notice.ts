/**
 * Vitest global setup of the unit project: without TEST_DATABASE_URL every integration suite runs on
 * PGlite only and its PostgreSQL variant is skipped. Say so once per run, with the command that runs it,
 * instead of leaving the reader to notice the missing "(postgres)" lines.
 */
export const POSTGRES_EXAMPLE_URL = 'postgres://root@127.0.0.1:5432/test';

export function postgresSuiteNotice(testDatabaseUrl: string | undefined): string | undefined {
  if (testDatabaseUrl) return undefined;
  return `PostgreSQL suite skipped: TEST_DATABASE_URL is not set — run it with TEST_DATABASE_URL=${POSTGRES_EXAMPLE_URL} npm test (README, "Running against PostgreSQL")`;
}

export default function setup() {
  const notice = postgresSuiteNotice(process.env.TEST_DATABASE_URL);
  if (!notice) return undefined;
  // At the end of the run, where the summary is read; the start of a long run scrolls away.
  return () => {
    console.log(`\n${notice}\n`);
  };
}
