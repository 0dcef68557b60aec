/** Values no deployer turns (ADR 0059 says why each); tests and drills pass others to buildApp or runServer. */
export const TUNING = {
  /** ADR 0014: a client that stops mid-request is answered 090601 and closed within 30 s. */
  httpHeadersTimeoutMs: 10_000,
  httpRequestTimeoutMs: 20_000,
  httpIdleTimeoutMs: 30_000,
  bodyLimitBytes: 1024 * 1024,
  /** Inside Kubernetes' 30-s and systemd's 90-s grace periods. */
  shutdownTimeoutMs: 10_000,
  /** For the sign-in, KYC search and phone reveal limits. */
  loginRateWindowSeconds: 60,
  kycSearchRateWindowSeconds: 60,
  phoneRevealRateWindowSeconds: 3600,
  /** Then 090503 (docs/reliability.md). */
  databasePoolWaitMs: 2000,
  /** ADR 0052: a read waits this long for the member's own write; a statement runs this long. */
  standbyReadWaitMs: 200,
  standbyReadTimeoutMs: 2000,
  /** Wherever the process can hear their changes (ADRs 0010, 0052); tests read them uncached. */
  sessionCache: true,
  /** While any app has a problem (ADR 0017); 0: no probe. */
  wecomProbeIntervalMs: 5 * 60_000,
  /** Between batches of the search-terms fill (ADR 0046); 0: no fill. */
  searchTermsFillPauseMs: 1000,
  /** Each replica checks that today's MOT batch ran (docs/mot.md); 0: no schedule. */
  motSweepIntervalMs: 15 * 60_000,
  /** Epoch ms, to line replicas up in a drill; undefined: at start. */
  motSweepFirstAt: undefined as number | undefined,
  /** ADR 0042; 0: not on this process. */
  motPushIntervalMs: 60_000,
  /** SEED_DEMO; `npm run seed` makes any other size. */
  demoCustomers: 2000,
};

export type Tuning = typeof TUNING;
