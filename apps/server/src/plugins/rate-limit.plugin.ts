import fp from 'fastify-plugin';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler, preValidationHookHandler } from 'fastify';
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

interface LimitedEndpoint {
  endpoint: Endpoint;
  rule: RateLimitRule;
  code: ErrorCodeValue;
  /** Who the budget belongs to. */
  subjectOf: (request: FastifyRequest) => string;
  /** The envelope msg: what was limited and when to retry. */
  message: (rule: RateLimitRule, retryAfterSeconds: number) => string;
  /** Sign-in counts before anything else runs; KYC search after authentication, which names the staff member. */
  stage: 'onRequest' | 'preValidation';
}

export interface RateLimitOptions {
  login: { limit: number; windowSeconds: number };
  kycSearch: { limit: number; windowSeconds: number };
  /** Full phone numbers revealed or dialled (ADR 0039). */
  phoneReveal: { limit: number; windowSeconds: number };
}

/**
 * Rate limits on the endpoints worth hammering: the WeCom code exchange (each attempt costs a call
 * to WeCom, keyed by client address — `request.ip` honours TRUST_PROXY) and KYC search (a lookup of
 * customers by phone or ID, keyed by staff member) and a phone's reveal (by staff member). Over the limit: HTTP 429, the endpoint's own
 * code and `Retry-After`. Must be registered before the routes it guards.
 */
async function rateLimitPlugin(app: FastifyInstance, options: RateLimitOptions) {
  const limiter = createRateLimiter(app.database);
  /** Sign-in by client address: the start writes a sign-in row, the exchange calls WeCom; each counted apart. */
  const signInLimit = (endpoint: typeof loginQywx | typeof startSignIn, bucket: string): LimitedEndpoint => ({
    endpoint,
    rule: { bucket, limit: options.login.limit, windowSeconds: options.login.windowSeconds },
    code: ErrorCode.LOGIN_RATE_LIMITED,
    subjectOf: (request) => request.ip,
    message: (rule, retry) =>
      `sign-in: too many attempts from this address (at most ${rule.limit} per ${rule.windowSeconds} s); retry in ${retry} s`,
    stage: 'onRequest',
  });
  const limited: LimitedEndpoint[] = [
    signInLimit(loginQywx, 'login'),
    signInLimit(startSignIn, 'login-start'),
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
      const verdict = await limiter.hit(entry.rule, entry.subjectOf(request));
      if (verdict.allowed) return;
      void reply.header('retry-after', String(verdict.retryAfterSeconds));
      throw new ApiError(entry.code, entry.message(entry.rule, verdict.retryAfterSeconds));
    };

  app.addHook('onRoute', (route) => {
    const entry = limited.find((candidate) => route.config?.endpoint === candidate.endpoint);
    if (!entry || entry.rule.limit === 0) return;
    const hook = guard(entry);
    if (entry.stage === 'onRequest') {
      route.onRequest = [...toArray(route.onRequest), whileConnected(hook) as onRequestHookHandler];
    } else {
      route.preValidation = [...toArray(route.preValidation), hook as preValidationHookHandler];
    }
  });
}

const toArray = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

export default fp(rateLimitPlugin, { name: 'rate-limit', dependencies: ['db', 'auth'] });
