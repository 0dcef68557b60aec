import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
// Loads the contract's plain-words validation messages, used for configuration errors too.
import '@broker/contract';
import { emulatorByDefaultProblems } from './wecom-mode-guard';
import { trustProxySchema } from './http/trust-proxy';

const booleanFromString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** A connection time limit in milliseconds: at least 100 ms, at most 10 minutes. */
const timeoutMs = (fallback: number) =>
  z.coerce
    .number({ error: 'must be a number' })
    .int('must be an integer')
    .min(100, 'must be at least 100 (milliseconds)')
    .max(600_000, 'must be at most 600000 (10 minutes)')
    .default(fallback);

const postgresUrl = z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL');

/** Comma-separated postgres:// URLs (spaces around the commas allowed). */
const postgresUrlList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((url) => url.trim())
      .filter((url) => url !== ''),
  )
  .pipe(z.array(postgresUrl).min(1, 'must name at least one postgres:// URL'));

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce
    .number({ error: 'must be a number' })
    .int('must be an integer')
    .min(0)
    .max(65535, 'must be a port number (0-65535)')
    .default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** PostgreSQL connection string; when absent the embedded PGlite database is used. */
  DATABASE_URL: postgresUrl.optional(),
  /**
   * Streaming standbys (comma-separated postgres:// URLs) for the reads of the endpoints listed in
   * http/standby-reads.ts (ADR 0052); absent, everything runs on DATABASE_URL.
   */
  DATABASE_READ_URL: postgresUrlList.optional(),
  /**
   * A standby further behind the primary than this is skipped until it catches up. At most 30 s: the
   * ownership checks of the reads on standbys run there too, so a client reassigned to another
   * manager stays readable by the old one for up to this long (ADR 0052, "Limits").
   */
  DATABASE_READ_MAX_LAG_MS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be an integer')
    .min(100, 'must be at least 100 (milliseconds)')
    .max(
      30_000,
      'must be at most 30000 (30 seconds): reads on standbys check ownership there, so a reassigned client stays readable by its old manager for up to this long',
    )
    .default(5000),
  /**
   * How long a staff member's read waits for a standby to replay that member's own last write before
   * it is sent to the primary instead; 0 never waits.
   */
  DATABASE_READ_WAIT_MS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be an integer')
    .min(0, 'must be at least 0')
    .max(10_000, 'must be at most 10000 (10 seconds)')
    .default(200),
  /**
   * How long a statement may run on a standby: the standby cancels it then, and a standby that answers
   * nothing (frozen, or a network black hole) is given up half a second later; either way the statement
   * is repeated on the primary (ADR 0052).
   */
  DATABASE_READ_TIMEOUT_MS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be an integer')
    .min(100, 'must be at least 100 (milliseconds)')
    .max(60_000, 'must be at most 60000 (1 minute)')
    .default(2000),
  /**
   * The primary itself (or a session-mode pooler), when DATABASE_URL is a transaction-mode pooler
   * such as PgBouncer: migrations, session advisory locks and LISTEN use it, and DATABASE_URL's
   * connections are opened without startup options, which PgBouncer refuses (ADR 0052). Without it
   * behind such a pooler the process is safe but runs no MOT sweep and no demo seed (it says so at start).
   */
  DATABASE_DIRECT_URL: postgresUrl.optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * How long a request may wait for a free PostgreSQL connection; past it the server answers
   * 090503 (HTTP 503, Retry-After) instead of queueing without end. See docs/reliability.md.
   */
  DATABASE_POOL_WAIT_MS: z.coerce.number().int().min(100, 'must be at least 100').max(60_000, 'must be at most 60000').default(2000),
  /**
   * Keep sessions in memory, ended by the database's change notifications (ADR 0010). The cache is used
   * only while its LISTEN hears a notification of its own (ADR 0052), so behind a transaction-mode
   * pooler without DATABASE_DIRECT_URL it stays unused either way: turn it off there to save the attempts.
   */
  SESSION_CACHE: booleanFromString.default(true),
  /**
   * Where PGlite keeps its files, relative to the directory the command was run from; `memory://`
   * keeps nothing. One process at a time (db/pglite-lock.ts).
   */
  PGLITE_DIR: z.string().min(1).default('./data/pglite'),
  /**
   * Unset: the emulator, as a development set-up that answers only this machine (no proxy); beyond
   * loopback, with CORPS_FILE, or in production behind TRUST_PROXY it must be set (wecom-mode-guard.ts, ADR 0016).
   */
  WECOM_MODE: z.enum(['emulator', 'real']).optional(),
  /** WeCom server API base; in emulator mode it defaults to this server's own /wecom mount. */
  WECOM_API_BASE: z.url({ error: 'must be a URL' }).optional(),
  /** Base of WeCom's OAuth page as the browser reaches it; emulator default: /wecom on this origin. */
  WECOM_OAUTH_BASE: z.string().optional(),
  /**
   * The WeCom probe runs at start (one log line per app) and again this often while any app has a
   * problem, so a fixed admin console shows in /readyz without a restart; 0 turns the probe off.
   */
  WECOM_PROBE_INTERVAL_MS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be an integer')
    .min(0)
    .max(24 * 3600 * 1000)
    .default(5 * 60 * 1000),
  /**
   * The bearer token that shows /readyz's details (standbys, each WeCom app's problem, cache counters) to
   * monitoring; without it /readyz says only whether the replica is ready (ADR 0054). Unset: the details
   * are never shown, and a caller presenting any token is refused.
   */
  HEALTH_DETAIL_TOKEN: z
    .string()
    .min(32, 'must be at least 32 characters (e.g. openssl rand -base64 32)')
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
    .optional(),
  /** JSON file describing corps and their WeCom agents (format: README, "Configuration"). */
  CORPS_FILE: z.string().min(1).optional(),
  TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60, 'must be at least 60')
    .max(30 * 24 * 3600)
    .default(8 * 3600),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(50 * 1024 * 1024)
    .default(1024 * 1024),
  /**
   * Folder holding WeCom's trusted-domain verification file (`WW_verify_<token>.txt`), served at the site
   * root and read at request time; unset: only a file that came with the web build is served.
   */
  WECOM_VERIFY_DIR: z.string().min(1).optional(),
  /** Built web app to serve; empty disables static serving. */
  WEB_DIST_DIR: z.string().optional(),
  /**
   * Customers whose search fields each replica keeps in memory, over all the books it has searched
   * (ADR 0035; about 550 bytes each, so the default holds ~275 MB at most). A book larger than this
   * is searched in SQL; 0 searches every book in SQL.
   */
  SEARCH_INDEX_MAX_ROWS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be an integer')
    .min(0)
    .max(50_000_000, 'must be at most 50000000')
    .default(500_000),
  /**
   * Pause between two batches (500 customers) of the background fill of search terms (ADR 0046):
   * a database migrated with a million customers is filled in about 35 minutes at the default, taking
   * a few percent of one core. 0 turns the fill off (the data tools' seed and import write terms themselves).
   */
  SEARCH_TERMS_FILL_PAUSE_MS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be an integer')
    .min(0)
    .max(3_600_000, 'must be at most 3600000')
    .default(1000),
  /** Seed demo data on first start when the database holds no customers. */
  SEED_DEMO: booleanFromString.default(true),
  DEMO_CUSTOMERS: z.coerce.number().int().min(0).max(100_000).default(2000),
  /**
   * Which peers may name the client's address and protocol: off, a hop count, or proxy addresses and
   * CIDRs; never everyone (http/trust-proxy.ts, ADR 0015).
   */
  TRUST_PROXY: trustProxySchema.default(false),
  /** Returns from WeCom without this browser's own sign-in, per client address per window (starts: ten times as many; ADR 0058); 0 turns the limits off. */
  LOGIN_RATE_LIMIT: z.coerce.number({ error: 'must be a number' }).int('must be an integer').min(0).max(100_000).default(10),
  LOGIN_RATE_WINDOW_SECONDS: z.coerce.number({ error: 'must be a number' }).int('must be an integer').min(1).max(86_400).default(60),
  /** KYC searches allowed per staff member per window; 0 turns the limit off. */
  KYC_SEARCH_RATE_LIMIT: z.coerce.number({ error: 'must be a number' }).int('must be an integer').min(0).max(100_000).default(30),
  KYC_SEARCH_RATE_WINDOW_SECONDS: z.coerce.number({ error: 'must be a number' }).int('must be an integer').min(1).max(86_400).default(60),
  /** Phone numbers a staff member may reveal or dial per window (each one audited, ADR 0039); 0 turns the limit off. */
  PHONE_REVEAL_RATE_LIMIT: z.coerce.number({ error: 'must be a number' }).int('must be an integer').min(0).max(100_000).default(60),
  PHONE_REVEAL_RATE_WINDOW_SECONDS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be an integer')
    .min(1)
    .max(86_400)
    .default(3600),
  /**
   * The Sentry DSN the web app was built with (VITE_SENTRY_DSN): its origin is added to the
   * Content-Security-Policy's connect-src so error reports can leave the page.
   */
  SENTRY_DSN: z.url({ error: 'must be a URL' }).optional(),
  /**
   * How often each replica checks whether today's MOT sweep has run (and runs it if not); 0 turns
   * the schedule off. Default 15 minutes: the batch runs shortly after midnight Hong Kong time.
   */
  MOT_SWEEP_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 3600 * 1000)
    .default(15 * 60 * 1000),
  /**
   * Hours after it is written that a contact record locks (docs/contact-log.md): until then its author
   * edits it in place, afterwards a correction adds a new version. Decimals allowed (a browser test locks
   * a record within seconds); at most ten years.
   */
  CONTACT_RECORD_LOCK_HOURS: z.coerce
    .number({ error: 'must be a number' })
    .positive('must be a positive number of hours')
    .max(24 * 3653, 'must be at most 87672 hours (ten years)')
    .default(24),
  /**
   * How often each replica sends the MOT cards that are due (docs/mot.md, ADR 0042); 0 turns the push
   * off on this replica (cards still queue). Default one minute: retries and the end of quiet hours.
   */
  MOT_PUSH_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 3600 * 1000)
    .default(60 * 1000),
  /** Hong Kong hours without MOT cards, `HH:mm-HH:mm` (may wrap midnight), or `off`. Cards wait until the end. */
  MOT_PUSH_QUIET_HOURS: z
    .string()
    .regex(/^(off|([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d)$/i, 'must be HH:mm-HH:mm (Hong Kong time) or off')
    .default('21:00-08:00'),
  /** A member gets at most one MOT card per this many minutes; later events join the waiting card. */
  MOT_PUSH_MIN_INTERVAL_MINUTES: z.coerce
    .number()
    .min(0)
    .max(24 * 60)
    .default(15),
  /**
   * The app's public origin as members' phones reach it (https://broker.example.com): MOT cards link
   * there. Unset: with the emulator, this server's own address; with real WeCom no card is sent.
   */
  APP_PUBLIC_URL: z.url({ error: 'must be a URL' }).optional(),
  /** Delay the first check until this instant (ISO 8601): lines replicas up for a drill or a test. Default: at start. */
  MOT_SWEEP_FIRST_AT: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }).optional(),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  /*
   * Slow connections (ADR 0014): a client that stops mid-request is answered 090601 (HTTP 408) and
   * closed, signed in or not. Checked every second at most, so the answer comes within the limit + 1 s.
   */
  /** All headers must have arrived this long after the request began. */
  HTTP_HEADERS_TIMEOUT_MS: timeoutMs(10_000),
  /** The whole request, headers and body, must have arrived this long after it began. */
  HTTP_REQUEST_TIMEOUT_MS: timeoutMs(20_000),
  /** A connection on which nothing moves either way for this long is closed (Node's socket timeout). */
  HTTP_IDLE_TIMEOUT_MS: timeoutMs(30_000),
  /** An idle keep-alive connection is kept this long; longer than a load balancer's idle timeout (often 60 s). */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: timeoutMs(72_000),
});

export type Env = z.infer<typeof envSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Node refuses to start an HTTP server whose headers may take longer than the whole request. */
function timeoutProblems(env: Env): string[] {
  if (env.HTTP_HEADERS_TIMEOUT_MS <= env.HTTP_REQUEST_TIMEOUT_MS) return [];
  return [
    `HTTP_HEADERS_TIMEOUT_MS=${env.HTTP_HEADERS_TIMEOUT_MS}: must be at most HTTP_REQUEST_TIMEOUT_MS (${env.HTTP_REQUEST_TIMEOUT_MS}), since headers are part of the request`,
  ];
}

/** Standbys and a direct connection are PostgreSQL's: PGlite has neither. */
function databaseTopologyProblems(env: Env): string[] {
  if (env.DATABASE_URL) return [];
  return (['DATABASE_READ_URL', 'DATABASE_DIRECT_URL'] as const)
    .filter((key) => env[key] !== undefined)
    .map((key) => `${key}: needs DATABASE_URL (the embedded PGlite database has no standbys and no pooler)`);
}

/** Settings whose value is a secret: a configuration error names them and their length, never their value. */
const SECRET_SETTINGS = new Set(['HEALTH_DETAIL_TOKEN']);

/**
 * A setting's value as a configuration error quotes it (errors reach logs and terminals): secrets hidden,
 * and a URL's password (postgres://user:password@host) starred out, the rest kept so the mistake shows.
 */
function shownValue(key: string, value: string): string {
  if (SECRET_SETTINGS.has(key)) return `(hidden, ${value.length} characters)`;
  return JSON.stringify(value.replace(/(\/\/[^/:@\s]*:)[^@\s]*@/g, '$1***@'));
}

/** Reads and validates configuration; the only place that touches process.env. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const relevant = Object.fromEntries(
    Object.keys(envSchema.shape).flatMap((key) => {
      const value = source[key];
      return value === undefined || value === '' ? [] : [[key, value]];
    }),
  );
  const parsed = envSchema.safeParse(relevant);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map(
        (issue) => `${issue.path.join('.')}=${shownValue(String(issue.path[0]), relevant[String(issue.path[0])] ?? '')}: ${issue.message}`,
      ),
    );
  }
  const unsafe = [...emulatorByDefaultProblems(parsed.data), ...timeoutProblems(parsed.data), ...databaseTopologyProblems(parsed.data)];
  if (unsafe.length > 0) throw new ConfigError(unsafe);
  const base = userDirectory(source);
  const env = parsed.data;
  return {
    ...env,
    PGLITE_DIR: resolveUserPath(env.PGLITE_DIR, base),
    ...(env.CORPS_FILE ? { CORPS_FILE: resolveUserPath(env.CORPS_FILE, base) } : {}),
    ...(env.WECOM_VERIFY_DIR ? { WECOM_VERIFY_DIR: resolveUserPath(env.WECOM_VERIFY_DIR, base) } : {}),
    ...(env.WEB_DIST_DIR ? { WEB_DIST_DIR: resolveUserPath(env.WEB_DIST_DIR, base) } : {}),
  };
}

/**
 * The directory the user ran the command from. npm runs a script in its package's folder (`-w`
 * moves a tool into tools/) but records where it was typed in INIT_CWD; without npm it is the
 * working directory. Every relative path a user gives (PGLITE_DIR, an import folder…) means this.
 */
export function userDirectory(source: NodeJS.ProcessEnv = process.env): string {
  const typedIn = source.INIT_CWD;
  return typedIn && isAbsolute(typedIn) ? typedIn : process.cwd();
}

/** `path` as the user meant it: relative to `base` (their directory); URLs such as `memory://` kept as they are. */
export function resolveUserPath(path: string, base: string = userDirectory()): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(path) ? path : resolve(base, path);
}

/** Which database a command-line tool works on: its flags, else DATABASE_URL, else PGlite at PGLITE_DIR. */
export interface DatabaseTarget {
  url: string | undefined;
  /** Absolute (or `memory://`). */
  pgliteDir: string;
}

const databaseTargetSchema = envSchema.pick({ DATABASE_URL: true, PGLITE_DIR: true });

/**
 * The tools' reading of the database settings: the same variables, rules and defaults as the
 * server's, with `--database-url` / `--pglite-dir` taking precedence, and relative paths resolved
 * from the user's directory, so `npm run seed` and `npm start` typed in one place share one database.
 */
export function loadDatabaseTarget(
  flags: { databaseUrl?: string | undefined; pgliteDir?: string | undefined },
  source: NodeJS.ProcessEnv = process.env,
): DatabaseTarget {
  const given = {
    DATABASE_URL: flags.databaseUrl ?? (source.DATABASE_URL || undefined),
    PGLITE_DIR: flags.pgliteDir ?? (source.PGLITE_DIR || undefined),
  };
  const parsed = databaseTargetSchema.safeParse(given);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const key = String(issue.path[0]) as keyof typeof given;
        const flag = key === 'DATABASE_URL' ? flags.databaseUrl : flags.pgliteDir;
        const name = flag === undefined ? key : key === 'DATABASE_URL' ? '--database-url' : '--pglite-dir';
        return `${name}=${shownValue(key, given[key] ?? '')}: ${issue.message}`;
      }),
    );
  }
  return { url: parsed.data.DATABASE_URL, pgliteDir: resolveUserPath(parsed.data.PGLITE_DIR, userDirectory(source)) };
}

/** Test and tool helper: a valid Env with overrides, without reading process.env. */
export function makeEnv(overrides: Partial<Record<keyof Env, string>> = {}): Env {
  return loadEnv(overrides as NodeJS.ProcessEnv);
}
