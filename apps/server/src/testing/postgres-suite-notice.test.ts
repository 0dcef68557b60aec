import { describe, expect, test } from 'vitest';
import { postgresSuiteNotice } from './postgres-suite-notice';

describe('the notice of a skipped PostgreSQL suite', () => {
  test('without TEST_DATABASE_URL: one line naming the variable and the command that runs the suite', () => {
    const notice = postgresSuiteNotice(undefined);
    expect(notice).toBeDefined();
    expect(notice).not.toContain('\n');
    expect(notice).toMatch(/^PostgreSQL suite skipped: TEST_DATABASE_URL is not set/);
    expect(notice).toContain('TEST_DATABASE_URL=postgres://root@127.0.0.1:5432/test npm test');
  });

  test('with TEST_DATABASE_URL (or an empty one, which is not set): nothing, or the notice', () => {
    expect(postgresSuiteNotice('postgres://root@127.0.0.1:5432/test')).toBeUndefined();
    expect(postgresSuiteNotice('')).toBeDefined();
  });
});
