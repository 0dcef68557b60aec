/**
 * A write refused by a standby (SQLSTATE 25006, read-only transaction): an endpoint listed in
 * http/standby-reads.ts wrote, which is a routing bug (ADR 0052). Raised by the routed pool in place
 * of the driver's error (kept as `cause`), so that it is answered 500/090500 and logged as an error,
 * not taken for the read-only primary of a failover, which passes and is answered 503/090503.
 */
export class WriteOnStandbyError extends Error {
  constructor(cause: Error) {
    super(`a write was sent to a standby (an endpoint read on standbys wrote; http/standby-reads.ts): ${cause.message}`, { cause });
    this.name = 'WriteOnStandbyError';
  }
}

/** SQLSTATE 25006 from a standby's connection becomes a WriteOnStandbyError; anything else is returned as it is. */
export function tagWriteOnStandby(error: unknown): unknown {
  return error instanceof Error && (error as { code?: unknown }).code === '25006' ? new WriteOnStandbyError(error) : error;
}
