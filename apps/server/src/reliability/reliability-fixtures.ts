import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { z } from 'zod';
import { envelopeSchema, errorEnvelopeSchema, type Endpoint } from '@broker/contract';
import { openDatabase, type DatabaseHandle } from '../db/client';
import { testDatabases, testDatabaseUrlForTools } from '../testing/test-databases';
import { createFromPostgresTemplate } from '../testing/database-templates';
import type { ApiAnswer, ApiClient } from '../testing/api-client';

// Throws when CI=true and TEST_DATABASE_URL is missing: in CI these suites must run, not skip.
testDatabases();

/** A PostgreSQL the server-level suites can hand to a child process by URL; without one they skip. */
export const postgresAdminUrl = testDatabaseUrlForTools();

export interface ThrowAwayPostgres {
  url: string;
  /** This process's own migrated handle. */
  handle: DatabaseHandle;
  drop(): Promise<void>;
}

/** Dropped (with its connections) afterwards. */
export async function createPostgresDatabase(prefix: string): Promise<ThrowAwayPostgres> {
  if (!postgresAdminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `broker_${prefix}_${Date.now()}_${randomBytes(3).toString('hex')}`;
  await createFromPostgresTemplate(postgresAdminUrl, name);
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString(), poolMax: 4 });
  return {
    url: url.toString(),
    handle,
    async drop() {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: postgresAdminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

export type CallOutcome =
  | { kind: 'answer'; status: number; code: string; msg: string; data: unknown; retryAfter: string | null }
  /** A 5xx page, HTML, a body that fails the response schema… */
  | { kind: 'invalid'; status: number; problem: string }
  /** Refused, reset, aborted. */
  | { kind: 'network'; problem: string };

/** Through the test client, judged against the contract; never throws. */
export async function callEndpoint<E extends Endpoint>(api: ApiClient, endpoint: E, input: z.input<E['request']>): Promise<CallOutcome> {
  let answer: ApiAnswer<unknown>;
  try {
    answer = await api.call(endpoint, input as Record<string, unknown>);
  } catch (error) {
    const cause = (error as Error).cause as Error | undefined;
    return { kind: 'network', problem: `${(error as Error).message}${cause ? `: ${cause.message}` : ''}` };
  }
  const { status, text } = answer;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { kind: 'invalid', status, problem: `not JSON: ${text.slice(0, 200)}` };
  }
  const code = (body as { code?: unknown }).code;
  const checked = code === '0' ? envelopeSchema(endpoint.response).safeParse(body) : errorEnvelopeSchema.safeParse(body);
  if (!checked.success) {
    return { kind: 'invalid', status, problem: `${checked.error.issues[0]?.message ?? 'bad envelope'}: ${text.slice(0, 200)}` };
  }
  const envelope = checked.data;
  return {
    kind: 'answer',
    status,
    code: envelope.code,
    msg: envelope.msg,
    data: envelope.data,
    retryAfter: answer.headers.get('retry-after'),
  };
}

/** `p` in 0–1 of an ascending list. */
export const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

export const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface StaffWorkload {
  /** By the client manager's WeCom userid, ascending. */
  customers: Map<string, number[]>;
  /** Not yet handled, by the client manager's WeCom userid, ascending. */
  pendingEvents: Map<string, number[]>;
}

export async function staffWorkload(handle: DatabaseHandle): Promise<StaffWorkload> {
  const group = (rows: Array<{ id: number; userid: string }>) => {
    const byStaff = new Map<string, number[]>();
    for (const row of rows) byStaff.set(row.userid, [...(byStaff.get(row.userid) ?? []), row.id]);
    return byStaff;
  };
  return {
    customers: group(
      await handle.query(
        'select c.id::int as id, s.wecom_user_id as userid from customer c join staff s on s.id = c.staff_id order by c.id',
      ),
    ),
    pendingEvents: group(
      await handle.query(
        "select e.id::int as id, s.wecom_user_id as userid from mot_event e join staff s on s.id = e.staff_id where e.status <> 'handled' order by e.id",
      ),
    ),
  };
}
