/**
 * Values no deployer turns, once settings (ADR 0059 says why each is what it is). Tests and drills pass others to
 * buildApp, or to runServer through testing/server-process.ts; nothing reads them from the environment.
 */
export const TUNING = {
  /** Slow connections (ADR 0014): a client that stops mid-request is answered 090601 and closed within 30 s. */
  httpHeadersTimeoutMs: 10_000,
  httpRequestTimeoutMs: 20_000,
  httpIdleTimeoutMs: 30_000,
  bodyLimitBytes: 1024 * 1024,
  /** SIGTERM: in-flight requests get this long, inside Kubernetes' 30-s and systemd's 90-s grace periods. */
  shutdownTimeoutMs: 10_000,
  /** The windows the sign-in, KYC search and phone reveal limits (settings) count over. */
  loginRateWindowSeconds: 60,
  kycSearchRateWindowSeconds: 60,
  phoneRevealRateWindowSeconds: 3600,
  /** A request waits this long for a PostgreSQL connection, then is answered 090503 (docs/reliability.md). */
  databasePoolWaitMs: 2000,
  /** Standbys (ADR 0052): a member's read waits this long for their own write to arrive, a statement runs this long. */
  standbyReadWaitMs: 200,
  standbyReadTimeoutMs: 2000,
  /** Sessions are cached wherever the process can hear their changes (ADRs 0010, 0052); tests read them uncached. */
  sessionCache: true,
  /** While any WeCom app has a problem it is probed again this often (ADR 0017); 0: no probe. */
  wecomProbeIntervalMs: 5 * 60_000,
  /** Pause between two batches of the background fill of search terms (ADR 0046); 0: no fill. */
  searchTermsFillPauseMs: 1000,
  /** How often each replica checks that today's MOT batch ran (docs/mot.md); 0: no schedule. */
  motSweepIntervalMs: 15 * 60_000,
  /** The first of those checks (epoch ms), to line replicas up in a drill; undefined: at start. */
  motSweepFirstAt: undefined as number | undefined,
  /** How often each replica sends the MOT cards that are due (ADR 0042); 0: not on this process. */
  motPushIntervalMs: 60_000,
  /** The demo data seeded on first start (SEED_DEMO); `npm run seed` makes any other size. */
  demoCustomers: 2000,
};

export type Tuning = typeof TUNING;
