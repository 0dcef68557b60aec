import fp from 'fastify-plugin';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, kycSearch, loginQywx, revealPhone, startSignIn, type Endpoint, type ErrorCodeValue } from '@broker/contract';
import type { DatabaseHandle } from '../db/client';
import { rateLimitCounters } from '../db/schema';
import { columnName, columnNames, insertTarget, rowsQuery, selectionWithValues, selectRows, tableAlias, type RowOf } from '../db/sql-rows';
import { ApiError } from '../http/api-error';
import { callerOf } from '../http/caller';
import { whileConnected } from '../http/client-error';

/** A limit: at most `limit` hits per subject in each fixed window of `windowSeconds`. */
export interface RateLimitRule {
  bucket: string;
  limit: number;
  windowSeconds: number;
}

export interface RateLimitVerdict {
  allowed: boolean;
  hits: number;
  /** Whole seconds until the current window ends (at least 1). */
  retryAfterSeconds: number;
}

/** How often each process deletes, per bucket, the counters of windows that have ended. */
const SWEEP_EVERY_MS = 3600_000;

const c = tableAlias(rateLimitCounters, 'c');

/**
 * Counters live in PostgreSQL (PGlite alike), not in process memory: two replicas behind one load
 * balancer must share one budget, or an attacker gets twice the attempts. One atomic upsert per
 * hit; the window is aligned on the database clock so replicas with skewed clocks agree.
 * See docs/decisions/0007-rate-limits-and-csp.md.
 */
export function createRateLimiter(database: Pick<DatabaseHandle, 'db'>) {
  const lastSweep = new Map<string, number>();
  /**
   * Deletes the bucket's counters whose window has ended: a hit in a later window restarts the count
   * anyway, so nothing a limit decides changes. The window is the rule's own: a fixed age ("a day")
   * deleted the live counters of any longer window, so a week's budget restarted every day, and the
   * sweep raced the hit that started it (a counter lost one hit, CI stop 28).
   */
  const sweepEnded = (rule: RateLimitRule) =>
    database.db.execute(
      sql`delete from ${rateLimitCounters} where ${rateLimitCounters.bucket} = ${rule.bucket}
          and ${rateLimitCounters.windowStart} < now() - make_interval(secs => ${rule.windowSeconds})`,
    );

  return {
    sweepEnded,
    async hit(rule: RateLimitRule, subject: string): Promise<RateLimitVerdict> {
      if (Date.now() - (lastSweep.get(rule.bucket) ?? 0) > SWEEP_EVERY_MS) {
        lastSweep.set(rule.bucket, Date.now());
        void sweepEnded(rule).catch(() => undefined);
      }
      // A newer window restarts the count; an older one (a replica whose statement started a moment
      // earlier) counts into the stored window rather than resetting it.
      const window = rule.windowSeconds;
      const verdict = selectionWithValues({
        hits: c.hits,
        retryAfterSeconds: sql<number>`greatest(1, ceil(extract(epoch from (${c.windowStart} + make_interval(secs => ${window}) - now()))))::int`,
      });
      const [row] = await selectRows(
        database.db,
        rowsQuery<RowOf<typeof verdict>>(
          sql`with slot as (select to_timestamp(floor(extract(epoch from now()) / ${window}) * ${window}) as window_start)
              insert into ${insertTarget(c)} (${columnNames(c.bucket, c.subject, c.windowStart, c.hits)})
              select ${rule.bucket}, ${subject.slice(0, 200)}, slot.window_start, 1 from slot
              on conflict (${columnNames(c.bucket, c.subject)}) do update
                 set ${columnName(c.hits)} = case when excluded.${columnName(c.windowStart)} > ${c.windowStart} then 1 else ${c.hits} + 1 end,
                     ${columnName(c.windowStart)} = greatest(${c.windowStart}, excluded.${columnName(c.windowStart)})
              returning ${verdict}`,
        ),
      );
      return { allowed: row!.hits <= rule.limit, hits: row!.hits, retryAfterSeconds: row!.retryAfterSeconds };
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/** A limit and its answer past it: the endpoint's code, and a msg that says what was limited and when to retry. */
export interface Limit {
  rule: RateLimitRule;
  code: ErrorCodeValue;
  message: (rule: RateLimitRule, retryAfterSeconds: number) => string;
}

/** Counts one hit of `subject`; past the limit: HTTP 429 with the limit's code, `Retry-After` in whole seconds and its msg. */
export async function enforceLimit(limiter: RateLimiter, limit: Limit, subject: string, reply: FastifyReply) {
  if (limit.rule.limit === 0) return;
  const verdict = await limiter.hit(limit.rule, subject);
  if (verdict.allowed) return;
  void reply.header('retry-after', String(verdict.retryAfterSeconds));
  throw new ApiError(limit.code, limit.message(limit.rule, verdict.retryAfterSeconds));
}

interface LimitedEndpoint extends Limit {
  endpoint: Endpoint;
  /** Who the budget belongs to. */
  subjectOf: (request: FastifyRequest) => string;
  /** Requests this limit neither counts nor refuses. */
  exempt?: (request: FastifyRequest) => boolean;
  /** Sign-in counts before anything else runs; KYC search after authentication, which names the staff member. */
  stage: 'onRequest' | 'preValidation';
}

export interface RateLimitOptions {
  /** Sign-in: returns from WeCom without this browser's own state, per address; starts get ten times as many. */
  login: { limit: number; windowSeconds: number };
  kycSearch: { limit: number; windowSeconds: number };
  /** Full phone numbers revealed or dialled (ADR 0039). */
  phoneReveal: { limit: number; windowSeconds: number };
  /** Whether a return from WeCom carries this browser's own sign-in state (modules/auth). */
  ownSignIn: (request: FastifyRequest) => boolean;
}

/**
 * Starts per address against failures: a start writes a row and buys one WeCom call, and an office behind one
 * address (or every user behind an untrusted proxy) starts many; only a flood reaches ten times the failure budget.
 */
const STARTS_PER_FAILURE = 10;

/**
 * Rate limits on the endpoints worth hammering (ADRs 0007, 0058): sign-in by client address (`request.ip`
 * honours TRUST_PROXY) — its starts, and the returns that can only fail, never a browser's own sign-in, so
 * that forging locks nobody else out — then KYC search (a lookup of customers by phone or ID) and a phone's
 * reveal, by staff member. Over the limit: HTTP 429, the endpoint's own code and `Retry-After`. Must be
 * registered before the routes it guards.
 */
async function rateLimitPlugin(app: FastifyInstance, options: RateLimitOptions) {
  const limiter = createRateLimiter(app.database);
  /** Sign-in by client address; `what` names, in the msg, what came too often. */
  const signInLimit = (endpoint: Endpoint, bucket: string, limit: number, what: string): LimitedEndpoint => ({
    endpoint,
    rule: { bucket, limit, windowSeconds: options.login.windowSeconds },
    code: ErrorCode.LOGIN_RATE_LIMITED,
    subjectOf: (request) => request.ip,
    message: (rule, retry) =>
      `sign-in: too many ${what} from this address (at most ${rule.limit} per ${rule.windowSeconds} s); retry in ${retry} s`,
    stage: 'onRequest',
  });
  const limited: LimitedEndpoint[] = [
    // A browser's own state goes through whatever this address did: a state is used once, and each cost a start.
    { ...signInLimit(loginQywx, 'login', options.login.limit, 'returns without a sign-in of this browser'), exempt: options.ownSignIn },
    signInLimit(startSignIn, 'login-start', options.login.limit * STARTS_PER_FAILURE, 'sign-ins started'),
    {
      endpoint: kycSearch,
      rule: { bucket: 'kyc-search', limit: options.kycSearch.limit, windowSeconds: options.kycSearch.windowSeconds },
      code: ErrorCode.KYC_SEARCH_RATE_LIMITED,
      subjectOf: (request) => `staff:${callerOf(request).staffId}`,
      message: (rule, retry) =>
        `KYC search: too many searches (at most ${rule.limit} per ${rule.windowSeconds} s for each staff member); retry in ${retry} s`,
      stage: 'preValidation',
    },
    {
      // Every reveal is audited already; the limit stops a script (or a stolen session) from harvesting a book's numbers.
      endpoint: revealPhone,
      rule: { bucket: 'phone-reveal', limit: options.phoneReveal.limit, windowSeconds: options.phoneReveal.windowSeconds },
      code: ErrorCode.PHONE_REVEAL_RATE_LIMITED,
      subjectOf: (request) => `staff:${callerOf(request).staffId}`,
      message: (rule, retry) =>
        `revealPhone: too many phone numbers revealed (at most ${rule.limit} per ${rule.windowSeconds} s for each staff member); retry in ${retry} s`,
      stage: 'preValidation',
    },
  ];

  const guard = (entry: LimitedEndpoint) =>
    async function rateLimitGuard(request: FastifyRequest, reply: FastifyReply) {
      if (!entry.exempt?.(request)) await enforceLimit(limiter, entry, entry.subjectOf(request), reply);
    };

  app.addHook('onRoute', (route) => {
    const entry = limited.find((candidate) => route.config?.endpoint === candidate.endpoint);
    if (!entry || entry.rule.limit === 0) return;
    const hook = guard(entry);
    if (entry.stage === 'onRequest') {
      route.onRequest = [...toArray(route.onRequest), whileConnected(hook)];
    } else {
      route.preValidation = [...toArray(route.preValidation), hook];
    }
  });
}

const toArray = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

export default fp(rateLimitPlugin, { name: 'rate-limit', dependencies: ['db', 'auth'] });
