import type { summarize } from './stats';
import type { CpuShare } from './cpu-share';

export type Engine = 'postgres' | 'pglite';

/** Which budget an endpoint answers to: `list` and `detail` the p95 target; `mot` none; `warm` (repeated inputs) compared only. */
export type EndpointGroup = 'list' | 'detail' | 'mot' | 'warm';

/** One endpoint at one concurrency on one database: over HTTP, and its SQL alone. */
export interface CellResult {
  engine: Engine;
  endpoint: string;
  group: EndpointGroup;
  concurrency: number;
  api: Measurement;
  sql: Measurement;
  /** Where the CPU went during the API cell (absent in older results, as are the next two). */
  cpu?: CpuShare | null;
  /** Requests whose parameters had been sent before in the run. */
  repeats?: number;
  /** Of the statements the requests ran, the share run prepared (ADR 0009). */
  preparedShare?: number;
}

/** Requests at a fixed rate, each timed from when it was meant to be sent, so queueing shows (no coordinated omission). */
export interface FixedRateResult extends Pick<CellResult, 'engine' | 'endpoint' | 'group' | 'api' | 'cpu' | 'repeats'> {
  /** Of the closed loop's req/s at `capacityConcurrency`. */
  fraction: number;
  capacityConcurrency: number;
  targetRate: number;
}

export interface Measurement {
  latency: ReturnType<typeof summarize>;
  /** Completed requests (any outcome) per second of measured time. */
  requestsPerSecond: number;
  requests: number;
  /** Non-2xx answers, non-"0" codes, socket errors and timeouts: a failed run shows here. */
  errors: number;
  /** A few distinct failure descriptions, for the report. */
  errorSamples: string[];
}

export interface MotSweepFigures {
  engine: Engine;
  customers: number;
  asOf: string;
  firstMs: number;
  firstInserted: number;
  rerunMs: number;
  /** Slowest rules of the first sweep, ms. */
  ruleMs: Record<string, number>;
}

export const TARGETS = {
  /** Search and client-detail p95 at concurrency 16 on PostgreSQL with 1,000,000 customers. */
  p95Ms: 50,
  p95Concurrency: 16,
  /** Fixed-rate mode at 50% of the closed loop's capacity at c16: p99 ≤ 100 ms (the honest benchmark, ADRs 0032–0037). */
  fixedRateP99Ms: 100,
  fixedRateFractions: [0.5, 0.8],
  /** API p50 ≤ ratio × SQL p50 + slack. */
  apiOverSqlRatio: 1.5,
  apiOverSqlSlackMs: 1,
  motSweepMs: 60_000,
  targetCustomers: 1_000_000,
} as const;

export type Verdict = 'PASS' | 'MISS';

/** The p95 budget, for list and detail cells at c16 on PostgreSQL (else null); a cell with errors misses (failures are fast). */
export function p95Verdict(cell: CellResult): Verdict | null {
  if (cell.engine !== 'postgres' || cell.group === 'mot' || cell.group === 'warm' || cell.concurrency !== TARGETS.p95Concurrency)
    return null;
  if (cell.api.errors > 0 || !(cell.api.latency.p95 <= TARGETS.p95Ms)) return 'MISS';
  return 'PASS';
}

/** API p50 ≤ 1.5 × SQL p50 + 1 ms: what the server adds on top of its statements stays small. */
export function ratioVerdict(cell: CellResult): Verdict {
  if (cell.api.errors > 0 || cell.sql.errors > 0) return 'MISS';
  const allowed = TARGETS.apiOverSqlRatio * cell.sql.latency.p50 + TARGETS.apiOverSqlSlackMs;
  return cell.api.latency.p50 <= allowed ? 'PASS' : 'MISS';
}

export const apiOverSql = (cell: CellResult) => cell.api.latency.p50 / cell.sql.latency.p50;

export function motVerdict(sweep: MotSweepFigures): Verdict | null {
  if (sweep.engine !== 'postgres') return null;
  return sweep.firstMs <= TARGETS.motSweepMs ? 'PASS' : 'MISS';
}
