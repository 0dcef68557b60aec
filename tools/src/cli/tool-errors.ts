import { ConfigError, PgliteDirInUseError } from '@broker/server';

/** A mistake in what the user typed: printed as it is, without a stack. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Errors whose message is the whole story for the person at the terminal. */
const explainsItself = (error: unknown): error is Error =>
  error instanceof UsageError || error instanceof ConfigError || error instanceof PgliteDirInUseError;

/** Runs a tool's `main` (its number is the exit code); SIGINT and SIGTERM exit through `process.exit`, releasing the PGlite lock. */
export function runTool(name: string, main: () => Promise<number>) {
  process.once('SIGINT', () => process.exit(130));
  process.once('SIGTERM', () => process.exit(143));
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(
        `${name} failed: ${explainsItself(error) ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      process.exit(1);
    },
  );
}
