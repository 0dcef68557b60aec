/**
 * A write refused by a standby (25006): a listed endpoint wrote, a routing bug (ADR 0052). Answered 500 and
 * logged as an error, not taken for a failover's read-only primary (503).
 */
export class WriteOnStandbyError extends Error {
  constructor(cause: Error) {
    super(`a write was sent to a standby (an endpoint read on standbys wrote; http/standby-reads.ts): ${cause.message}`, { cause });
    this.name = 'WriteOnStandbyError';
  }
}

export function tagWriteOnStandby(error: unknown): unknown {
  return error instanceof Error && (error as { code?: unknown }).code === '25006' ? new WriteOnStandbyError(error) : error;
}
