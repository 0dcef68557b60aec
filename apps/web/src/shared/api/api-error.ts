/** A failed call: the server's business code and msg, or a client-side code for transport failures. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly code: string,
    message: string,
    readonly path: string,
    /** For BAD_RESPONSE: where the data differs from the contract (for the report, not for the user). */
    readonly detail?: string,
  ) {
    super(message);
  }
}

/** Codes the web client itself assigns when no business answer arrived. */
export const ClientErrorCode = {
  NETWORK: 'NETWORK',
  BAD_RESPONSE: 'BAD_RESPONSE',
} as const;
