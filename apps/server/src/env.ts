import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
// Loads the contract's plain-words validation messages, used for configuration errors too.
import '@broker/contract';
import { emulatorByDefaultProblems } from './wecom-mode-guard';
import { trustProxySchema } from './http/trust-proxy';

/**
 * What a deployer sets, grouped by concern. Each setting carries the one description the README's
 * configuration table is generated from (`npm run docs:settings`; a test fails when they differ). Values
 * nobody needs to turn are constants in tuning.ts (ADR 0059).
 */
const setting = <T extends z.ZodType>(schema: T, description: string, shownDefault?: string): T =>
  schema.meta({ description, ...(shownDefault === undefined ? {} : { shownDefault }) });

const booleanFromString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const number = () => z.coerce.number({ error: 'must be a number' });
const whole = () => number().int('must be an integer');

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

const server = {
  NODE_ENV: setting(
    z.enum(['development', 'production', 'test']).default('production'),
    '`production`, `development` or `test`; in `production` a server behind `TRUST_PROXY` must set `WECOM_MODE` (ADR 0016)',
  ),
  HOST: setting(
    z.string().min(1).default('127.0.0.1'),
    'interface to listen on (`0.0.0.0` for all; beyond loopback `WECOM_MODE` must be set)',
  ),
  PORT: setting(whole().min(0).max(65535, 'must be a port number (0-65535)').default(3000), 'HTTP port (`0` picks a free one)'),
  TRUST_PROXY: setting(
    trustProxySchema.default(false),
    "which peers may name the client's address and protocol (`X-Forwarded-For`, `-Proto`): `false`/`0` none; a hop count (`1` behind " +
      'one nginx or load balancer that the server alone can be reached through); or proxy addresses/CIDRs, comma-separated ' +
      '(`10.0.0.5`, `10.1.0.0/16,fd00::/8`). `true` (everyone) is refused: any client could choose its own address and dodge ' +
      'the sign-in limit (ADR 0015)',
  ),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: setting(
    whole().min(100, 'must be at least 100 (milliseconds)').max(600_000, 'must be at most 600000 (10 minutes)').default(72_000),
    "how long an idle keep-alive connection is kept; keep it above the load balancer's idle timeout (often 60 s)",
  ),
  WEB_DIST_DIR: setting(z.string().optional(), 'the built web app to serve; empty serves none', '`apps/web/dist`'),
  SENTRY_DSN: setting(
    z.url({ error: 'must be a URL' }).optional(),
    "the DSN the web app was built with (`VITE_SENTRY_DSN`); its origin is allowed in the CSP's `connect-src`",
  ),
};

const database = {
  DATABASE_URL: setting(
    postgresUrl.optional(),
    "PostgreSQL's `postgres://…` URL (or a transaction-mode PgBouncer entry's); unset: the embedded PGlite at `PGLITE_DIR`, " +
      'for one machine and the demo',
  ),
  DATABASE_DIRECT_URL: setting(
    postgresUrl.optional(),
    'the primary itself (or a session-mode pooler entry), when `DATABASE_URL` is a transaction-mode pooler (PgBouncer): ' +
      'migrations, session advisory locks and LISTEN use it, and `DATABASE_URL` is opened without startup options, which ' +
      'PgBouncer refuses (ADR 0052). Without it behind such a pooler the process runs no MOT sweep and no demo seed, and says so at start',
  ),
  DATABASE_POOL_MAX: setting(
    whole().min(1).max(200).default(10),
    'PostgreSQL connections per process for each of its two pools (plain and prepared); a request that waits 2 s for one is ' +
      'answered `090503` (HTTP 503, `Retry-After`)',
  ),
  DATABASE_READ_URL: setting(
    postgresUrlList.optional(),
    'comma-separated `postgres://` URLs of streaming standbys: the page reads of the endpoints listed in ' +
      '`apps/server/src/http/standby-reads.ts` go there, everything else to `DATABASE_URL`; a staff member reads their own ' +
      'writes (ADR 0052)',
  ),
  DATABASE_READ_MAX_LAG_MS: setting(
    whole()
      .min(100, 'must be at least 100 (milliseconds)')
      .max(
        30_000,
        'must be at most 30000 (30 seconds): reads on standbys check ownership there, so a reassigned client stays readable by its old manager for up to this long',
      )
      .default(5000),
    'a standby further behind the primary than this (or down) is skipped until it catches up; at most `30000`, since a ' +
      'reassigned client stays readable by its old manager on a standby this long',
  ),
  PGLITE_DIR: setting(
    z.string().min(1).default('./data/pglite'),
    'where PGlite keeps its files (`memory://` keeps nothing); one process at a time (ADR 0020)',
  ),
};

const wecom = {
  WECOM_MODE: setting(
    z.enum(['emulator', 'real']).optional(),
    '`real` talks to WeCom; `emulator` mounts the WeCom stand-in at `/wecom`. Unset: the stand-in for this machine only, ' +
      'none through a proxy; it must be set when `HOST` is not loopback, `CORPS_FILE` is set, or `NODE_ENV=production` ' +
      'runs behind `TRUST_PROXY` (ADR 0016)',
    'unset: emulator, this machine only',
  ),
  CORPS_FILE: setting(
    z.string().min(1).optional(),
    'JSON file of the corps and their WeCom apps ([docs/deployment.md](docs/deployment.md#real-wecom))',
    'built-in corp `fxhl`',
  ),
  WECOM_API_BASE: setting(
    z.url({ error: 'must be a URL' }).optional(),
    "WeCom's server API, e.g. through an outbound proxy",
    "emulator: this server's `/wecom`; real: `https://qyapi.weixin.qq.com`",
  ),
  WECOM_VERIFY_DIR: setting(
    z.string().min(1).optional(),
    "folder with WeCom's trusted-domain file `WW_verify_<token>.txt`, served at the site root, read at request time",
  ),
  APP_PUBLIC_URL: setting(
    z.url({ error: 'must be a URL' }).optional(),
    "the app's origin as members' phones reach it: MOT cards link there (with real WeCom, no card is sent without it)",
    "emulator: this server's address",
  ),
};

const signInAndLimits = {
  TOKEN_TTL_SECONDS: setting(
    whole()
      .min(60, 'must be at least 60')
      .max(30 * 24 * 3600)
      .default(8 * 3600),
    'lifetime of a sign-in (8 h)',
  ),
  LOGIN_RATE_LIMIT: setting(
    whole().min(0).max(100_000).default(10),
    "returns from WeCom that cannot be this browser's own sign-in, per client address per minute, across replicas (starts: " +
      "ten times as many); then `080429` (HTTP 429, `Retry-After`); a browser's own sign-in is never refused (ADR 0058); `0` = off",
  ),
  KYC_SEARCH_RATE_LIMIT: setting(
    whole().min(0).max(100_000).default(30),
    'KYC searches per staff member per minute, across replicas; then `091429`; `0` = off',
  ),
  PHONE_REVEAL_RATE_LIMIT: setting(
    whole().min(0).max(100_000).default(60),
    "a client's full phone number revealed or dialled, per staff member per hour, across replicas (each one audited, " +
      'ADR 0039); then `094429`; `0` = off',
  ),
};

const clientWork = {
  CONTACT_RECORD_LOCK_HOURS: setting(
    number()
      .positive('must be a positive number of hours')
      .max(24 * 3653, 'must be at most 87672 hours (ten years)')
      .default(24),
    'hours after a contact record is written that it locks: its author edits it in place until then, afterwards a ' +
      'correction adds a new version and keeps the old (`docs/contact-log.md`); decimals allowed',
  ),
  MOT_PUSH_QUIET_HOURS: setting(
    z
      .string()
      .regex(/^(off|([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d)$/i, 'must be HH:mm-HH:mm (Hong Kong time) or off')
      .default('21:00-08:00'),
    'Hong Kong hours without MOT cards in WeCom (`HH:mm-HH:mm`, may wrap midnight, or `off`); cards wait until the end',
  ),
  MOT_PUSH_MIN_INTERVAL_MINUTES: setting(
    number()
      .min(0)
      .max(24 * 60)
      .default(15),
    'at most one MOT card per member per this many minutes; later events join the waiting card',
  ),
  SEARCH_INDEX_MAX_ROWS: setting(
    whole().min(0).max(50_000_000, 'must be at most 50000000').default(500_000),
    'customers whose search fields each process keeps in memory over all the books it has searched (~550 bytes each, ' +
      'ADR 0035); a larger book is searched in SQL; `0` searches every book in SQL',
  ),
};

const operations = {
  LOG_LEVEL: setting(
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    '`fatal` … `trace`, or `silent`',
  ),
  HEALTH_DETAIL_TOKEN: setting(
    z
      .string()
      .min(32, 'must be at least 32 characters (e.g. openssl rand -base64 32)')
      .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
      .optional(),
    'a bearer token (32+ printable characters, e.g. `openssl rand -base64 32`) that monitoring sends as ' +
      "`Authorization: Bearer …` to see `/readyz`'s details: each standby's state and lag, each WeCom app's problem, cache " +
      'counters; without it `/readyz` answers only whether the process is ready, a wrong token gets `401` (ADR 0054)',
  ),
  SEED_DEMO: setting(
    booleanFromString.optional(),
    'seed 2,000 demo customers into the first corp on first start when the database holds none',
    'unset: `true` with the emulator, `false` with `WECOM_MODE=real`',
  ),
};

/** The settings by concern, in the README's order. */
export const SETTING_GROUPS = {
  'Server and HTTP': server,
  Database: database,
  WeCom: wecom,
  'Sign-in and limits': signInAndLimits,
  'Client records, MOT and search': clientWork,
  Operations: operations,
};

const envSchema = z.object({ ...server, ...database, ...wecom, ...signInAndLimits, ...clientWork, ...operations });

export type Env = z.infer<typeof envSchema>;

/** Demo clients in a real corp's database would be taken for the bank's own: with real WeCom only when asked. */
export const seedsDemoData = (env: Env) => env.SEED_DEMO ?? env.WECOM_MODE !== 'real';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Settings that became constants (ADR 0059): one still set would be ignored, and a deployment that turned
 * one off (MOT_PUSH_INTERVAL_MS=0 on a replica) would silently run differently, so it stops the start.
 */
const RETIRED_SETTINGS = [
  ...['BODY_LIMIT_BYTES', 'SHUTDOWN_TIMEOUT_MS', 'HTTP_HEADERS_TIMEOUT_MS', 'HTTP_REQUEST_TIMEOUT_MS', 'HTTP_IDLE_TIMEOUT_MS'],
  ...['DATABASE_POOL_WAIT_MS', 'DATABASE_READ_WAIT_MS', 'DATABASE_READ_TIMEOUT_MS', 'SESSION_CACHE', 'SEARCH_TERMS_FILL_PAUSE_MS'],
  ...[
    'WECOM_OAUTH_BASE',
    'WECOM_PROBE_INTERVAL_MS',
    'DEMO_CUSTOMERS',
    'MOT_SWEEP_INTERVAL_MS',
    'MOT_SWEEP_FIRST_AT',
    'MOT_PUSH_INTERVAL_MS',
  ],
  ...['LOGIN_RATE_WINDOW_SECONDS', 'KYC_SEARCH_RATE_WINDOW_SECONDS', 'PHONE_REVEAL_RATE_WINDOW_SECONDS'],
];

function retiredProblems(source: NodeJS.ProcessEnv): string[] {
  return RETIRED_SETTINGS.filter((key) => source[key]).map(
    (key) => `${key}: no longer a setting, its value is fixed (docs/decisions/0059-settings-a-deployer-sets.md); remove it`,
  );
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
  // An empty setting is an unset one.
  const relevant = Object.fromEntries(Object.keys(envSchema.shape).flatMap((key) => (source[key] ? [[key, source[key]]] : [])));
  const parsed = envSchema.safeParse(relevant);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map(
        (issue) => `${issue.path.join('.')}=${shownValue(String(issue.path[0]), relevant[String(issue.path[0])] ?? '')}: ${issue.message}`,
      ),
    );
  }
  const unsafe = [...retiredProblems(source), ...emulatorByDefaultProblems(parsed.data), ...databaseTopologyProblems(parsed.data)];
  if (unsafe.length > 0) throw new ConfigError(unsafe);
  const env = parsed.data;
  for (const key of ['PGLITE_DIR', 'CORPS_FILE', 'WECOM_VERIFY_DIR', 'WEB_DIST_DIR'] as const) {
    if (env[key]) env[key] = resolveUserPath(env[key], userDirectory(source));
  }
  return env;
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

const databaseTargetSchema = envSchema.pick({ DATABASE_URL: true, PGLITE_DIR: true });

/**
 * Which database a command-line tool works on: its flags, else DATABASE_URL, else PGlite at PGLITE_DIR (made
 * absolute, or `memory://`). The same variables, rules and defaults as the server's, relative paths resolved
 * from the user's directory, so `npm run seed` and `npm start` typed in one place share one database.
 */
export function loadDatabaseTarget(
  flags: { databaseUrl?: string | undefined; pgliteDir?: string | undefined },
  source: NodeJS.ProcessEnv = process.env,
) {
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
  return loadEnv(overrides);
}
