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

/** At most `limit` hits per subject in each fixed window of `windowSeconds`. */
export interface RateLimitRule {
  bucket: string;
  limit: number;
  windowSeconds: number;
}

/** Per bucket, each process deletes the counters of ended windows. */
const SWEEP_EVERY_MS = 3600_000;

const c = tableAlias(rateLimitCounters, 'c');

/**
 * Counters live in the database so replicas share one budget (else an attacker gets twice the attempts): one
 * atomic upsert per hit, the window aligned on the database clock (ADR 0007).
 */
export function createRateLimiter(database: Pick<DatabaseHandle, 'db'>) {
  const lastSweep = new Map<string, number>();
  /**
   * A hit in a later window restarts the count anyway. The rule's own window: a fixed age deleted a longer
   * window's live counters, and raced the hit that started it.
   */
  const sweepEnded = (rule: RateLimitRule) =>
    database.db.execute(
      sql`delete from ${rateLimitCounters} where ${rateLimitCounters.bucket} = ${rule.bucket}
          and ${rateLimitCounters.windowStart} < now() - make_interval(secs => ${rule.windowSeconds})`,
    );

  return {
    sweepEnded,
    async hit(rule: RateLimitRule, subject: string) {
      if (Date.now() - (lastSweep.get(rule.bucket) ?? 0) > SWEEP_EVERY_MS) {
        lastSweep.set(rule.bucket, Date.now());
        void sweepEnded(rule).catch(() => undefined);
      }
      // A newer window restarts the count; an older one (a replica a moment earlier) counts into the stored one.
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

/** The msg says what was limited and when to retry. */
export interface Limit {
  rule: RateLimitRule;
  code: ErrorCodeValue;
  message: (rule: RateLimitRule, retryAfterSeconds: number) => string;
}

/** Past the limit: 429 with the limit's code, its msg and `Retry-After`. */
export async function enforceLimit(limiter: RateLimiter, limit: Limit, subject: string, reply: FastifyReply) {
  if (limit.rule.limit === 0) return;
  const verdict = await limiter.hit(limit.rule, subject);
  if (verdict.allowed) return;
  void reply.header('retry-after', String(verdict.retryAfterSeconds));
  throw new ApiError(limit.code, limit.message(limit.rule, verdict.retryAfterSeconds));
}

interface LimitedEndpoint extends Limit {
  endpoint: Endpoint;
  subjectOf: (request: FastifyRequest) => string;
  exempt?: (request: FastifyRequest) => boolean;
  /** Sign-in counts before anything else; KYC search after authentication, which names the staff member. */
  stage: 'onRequest' | 'preValidation';
}

export interface RateLimitOptions {
  /** Returns without this browser's own state, per address; starts get ten times as many. */
  login: { limit: number; windowSeconds: number };
  kycSearch: { limit: number; windowSeconds: number };
  /** ADR 0039. */
  phoneReveal: { limit: number; windowSeconds: number };
  /** modules/auth's check. */
  ownSignIn: (request: FastifyRequest) => boolean;
}

/** Starts cost a row and a WeCom call, and an office starts many behind one address: only a flood reaches ten times. */
const STARTS_PER_FAILURE = 10;

/**
 * Sign-in by address (`request.ip` honours TRUST_PROXY), never a browser's own sign-in, so forging locks nobody
 * out; KYC search and phone reveals by staff member (ADRs 0007, 0058). Registered before the routes it guards.
 */
async function rateLimitPlugin(app: FastifyInstance, options: RateLimitOptions) {
  const limiter = createRateLimiter(app.database);
  /** `what` names, in the msg, what came too often. */
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
    // A browser's own state passes: a state is used once, and each cost a start.
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
      // Every reveal is audited; the limit stops a script or a stolen session harvesting a book's numbers.
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
