/** Why the PostgreSQL database could not be opened, in one line naming DATABASE_URL (password masked) and what to check. */
export class DatabaseConnectionError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'DatabaseConnectionError';
  }
}

export function maskedDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(not a URL)';
  }
}

type ConnectionParts = ReturnType<typeof partsOf>;

function partsOf(url: string) {
  const parsed = new URL(url);
  return {
    host: decodeURIComponent(parsed.hostname) || 'localhost',
    port: parsed.port || '5432',
    user: decodeURIComponent(parsed.username) || '(the operating-system user)',
    database: decodeURIComponent(parsed.pathname.replace(/^\//, '')) || decodeURIComponent(parsed.username) || '(the user name)',
  };
}

/** From the driver's error code (node's or PostgreSQL's SQLSTATE). */
function diagnose(code: string | undefined, message: string, at: ConnectionParts, waitMs: number): string {
  const where = `${at.host}:${at.port}`;
  switch (code) {
    case 'ECONNREFUSED':
      return `nothing accepts connections at ${where} — check that PostgreSQL is running there and the host and port in DATABASE_URL`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host "${at.host}" is not known — check the host name in DATABASE_URL`;
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'TIMEOUT':
      return `no answer from ${where} within ${waitMs} ms — check the host and port in DATABASE_URL and that a firewall lets this server reach PostgreSQL`;
    case '3D000':
      return `the database "${at.database}" does not exist on ${where} — create it (createdb -h ${at.host} -p ${at.port} ${at.database}) or fix the database name in DATABASE_URL`;
    case '28000':
      return /does not exist/.test(message)
        ? `the role "${at.user}" does not exist on ${where} — create it (createuser -h ${at.host} -p ${at.port} ${at.user}) or fix the user name in DATABASE_URL`
        : `PostgreSQL at ${where} refused user "${at.user}" (${message}) — check pg_hba.conf allows this server, and the user in DATABASE_URL`;
    case '28P01':
      return `PostgreSQL at ${where} refused the password of user "${at.user}" — check the user and password in DATABASE_URL`;
    case '53300':
      return `PostgreSQL at ${where} has no free connection (${message}) — raise max_connections or lower DATABASE_POOL_MAX`;
    case '57P03':
      return `PostgreSQL at ${where} is starting up or shutting down — start again once it accepts connections`;
    default:
      // PgBouncer's answer to the session settings every connection asks for (ADR 0052).
      if (/unsupported startup parameter/.test(message)) {
        return `${where} refused the connection's startup options (${message}) — a transaction-mode pooler such as PgBouncer: set DATABASE_DIRECT_URL to the primary itself, and the app sends none`;
      }
      return `cannot connect to ${where} (${message}) — check DATABASE_URL and that PostgreSQL is running there`;
  }
}

/** pg's pool timeout has no code, only its message. */
function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  const message = error instanceof Error ? error.message : '';
  if (/timeout/i.test(message)) return 'TIMEOUT';
  // Several IPs (localhost: ::1 and 127.0.0.1) fail with an AggregateError of each.
  const first = (error as { errors?: unknown[] }).errors?.[0];
  return first === undefined ? undefined : codeOf(first);
}

export function databaseConnectionError(error: unknown, url: string, waitMs: number): DatabaseConnectionError {
  const code = codeOf(error);
  const message = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
  let parts: ConnectionParts;
  try {
    parts = partsOf(url);
  } catch {
    return new DatabaseConnectionError(`DATABASE_URL is not a URL — check its form: postgres://user:password@host:port/database`, code);
  }
  return new DatabaseConnectionError(
    `Cannot open the database at DATABASE_URL=${maskedDatabaseUrl(url)}: ${diagnose(code, message, parts, waitMs)}`,
    code,
  );
}
