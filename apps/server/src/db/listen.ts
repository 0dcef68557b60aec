import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { DatabaseHandle, NotificationHandlers } from './client';
import { connectionConfig } from './postgres-pools';

export const checkedChannel = (channel: string) => {
  if (!/^[a-z_]+$/.test(channel)) throw new Error(`listen: not a channel name: ${channel}`);
  return channel;
};

/** From half a second, doubling, at most 30 s. */
const LISTEN_RETRY_MS = { first: 500, max: 30_000 };

/** Directly or through a session-mode pooler it arrives within milliseconds; through a transaction-mode one never. */
export const SESSION_PROOF_TIMEOUT_MS = 2000;
const SESSION_PROOF_CHANNEL = 'broker_session_proof';
/** A failed proof stands this long (a transaction-mode pooler stays one). */
const SESSION_PROOF_RETRY_MS = 60_000;

type ProofNotifier = (payload: string) => Promise<unknown>;

/**
 * LISTENs on `client` and has `notify` send a fresh nonce from another connection. Through a transaction-mode
 * pooler the LISTEN succeeds on a server connection handed to someone else, and the nonce never arrives.
 */
async function hearsOwnNotification(client: pg.Client, notify: ProofNotifier, timeoutMs: number): Promise<boolean> {
  const nonce = randomUUID();
  // The nonce heard (true) or the time up (false), whichever comes first.
  let settle: (proven: boolean) => void = () => {};
  const outcome = new Promise<boolean>((resolve) => (settle = resolve));
  const onNotification = (message: pg.Notification) => {
    if (message.channel === SESSION_PROOF_CHANNEL && message.payload === nonce) settle(true);
  };
  client.on('notification', onNotification);
  let timer: NodeJS.Timeout | undefined;
  try {
    await client.query(`listen ${SESSION_PROOF_CHANNEL}`);
    await notify(nonce);
    timer = setTimeout(() => settle(false), timeoutMs);
    timer.unref();
    const proven = await outcome;
    // Through a pooler the UNLISTEN could land elsewhere.
    if (proven) await client.query(`unlisten ${SESSION_PROOF_CHANNEL}`);
    return proven;
  } finally {
    clearTimeout(timer);
    client.off('notification', onNotification);
  }
}

async function proveSession(url: string, notify: ProofNotifier, timeoutMs: number): Promise<boolean> {
  const client = new pg.Client({ ...connectionConfig(url, ''), connectionTimeoutMillis: timeoutMs });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return await hearsOwnNotification(client, notify, timeoutMs);
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * LISTEN on a connection of its own, reopened when lost (TCP keepalive notices a silent loss). Live only once it
 * heard its own notification: a cache trusting a deaf LISTEN would serve revoked sessions.
 */
async function listenPostgres(
  url: string,
  channel: string,
  handlers: NotificationHandlers,
  proof: { notify: ProofNotifier; timeoutMs: number; where: string; settled(proven: boolean): void },
): Promise<() => Promise<void>> {
  const name = checkedChannel(channel);
  let stopped = false;
  let current: pg.Client | null = null;
  let retryMs = LISTEN_RETRY_MS.first;
  let retry: NodeJS.Timeout | undefined;
  const scheduleRetry = () => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void open();
    }, retryMs);
    retry.unref();
    retryMs = Math.min(retryMs * 2, LISTEN_RETRY_MS.max);
  };
  const open = async () => {
    const client = new pg.Client({ connectionString: url, keepAlive: true });
    current = client;
    const lost = () => {
      if (current !== client) return;
      current = null;
      handlers.onLive(false);
      client.end().catch(() => undefined);
      scheduleRetry();
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (message) => {
      if (message.channel === name) handlers.onNotify(message.payload ?? '');
    });
    let proven: boolean;
    try {
      await client.connect();
      proven = await hearsOwnNotification(client, proof.notify, proof.timeoutMs);
      if (proven) await client.query(`listen ${name}`);
    } catch {
      lost();
      return;
    }
    if (current !== client) return;
    proof.settled(proven);
    if (!proven) {
      handlers.onUnproven?.(
        `the LISTEN on ${proof.where} did not hear a notification sent through DATABASE_URL within ${proof.timeoutMs} ms ` +
          '(a transaction-mode pooler?): sessions are read from the database on every request until it does; ' +
          'set DATABASE_DIRECT_URL to the primary or a session-mode pooler entry (ADR 0052)',
      );
      lost();
      return;
    }
    retryMs = LISTEN_RETRY_MS.first;
    handlers.onLive(true);
  };
  await open();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const client = current;
    current = null;
    handlers.onLive(false);
    await client?.end().catch(() => undefined);
  };
}

/**
 * The session side of a PostgreSQL handle, on `sessionUrl` (DATABASE_DIRECT_URL's, else DATABASE_URL's); proof
 * nonces go through `pool`, as the session triggers' notifications do.
 */
export function postgresSessions(
  pool: pg.Pool,
  sessionUrl: string,
  where: string,
  timeoutMs: number,
): Pick<DatabaseHandle, 'keepsSessions' | 'listen'> {
  const notifyProof: ProofNotifier = (payload) => pool.query('select pg_notify($1, $2)', [SESSION_PROOF_CHANNEL, payload]);
  let sessionsProven = false;
  let lastFailedProofAt = Number.NEGATIVE_INFINITY;
  let sessionProof: Promise<boolean> | undefined;
  const settleSessionProof = (proven: boolean) => {
    if (proven) sessionsProven = true;
    else lastFailedProofAt = performance.now();
  };
  return {
    keepsSessions: async () => {
      if (sessionsProven) return true;
      if (performance.now() - lastFailedProofAt < SESSION_PROOF_RETRY_MS) return false;
      sessionProof ??= proveSession(sessionUrl, notifyProof, timeoutMs).finally(() => {
        sessionProof = undefined;
      });
      settleSessionProof(await sessionProof);
      return sessionsProven;
    },
    // NOTIFY comes from the primary: never a standby, never a transaction-mode pooler.
    listen: (channel, handlers) =>
      listenPostgres(sessionUrl, channel, handlers, {
        notify: notifyProof,
        timeoutMs,
        // The LISTEN's own proof answers keepsSessions too.
        settled: settleSessionProof,
        where,
      }),
  };
}
