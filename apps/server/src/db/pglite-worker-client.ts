import { Worker } from 'node:worker_threads';
import { messages, type QueryOptions, type Results } from '@electric-sql/pglite';
import type { PgliteWorkerData, SerializedError, WorkerMessage, WorkerRequest } from './pglite-worker-protocol';

/** A statement's options as both PGlite and its worker take them. */
export type PgliteQueryOptions = Pick<QueryOptions, 'rowMode' | 'parsers' | 'blob'>;

export interface PgliteTransactionClient {
  query<T>(text: string, params?: unknown[], options?: PgliteQueryOptions): Promise<Results<T>>;
}

/**
 * What the server uses of PGlite, met by PGlite itself and by `startPgliteWorker` alike: statements,
 * interactive transactions, LISTEN. Drizzle's PGlite driver calls only `query` (with `rowMode` and
 * `parsers`) and `transaction` (drizzle-orm 0.45, pglite/session.js).
 */
export interface PgliteClient extends PgliteTransactionClient {
  transaction<T>(callback: (tx: PgliteTransactionClient) => Promise<T>): Promise<T>;
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** The worker's file: beside this module in the sources (src/db/) and in the compiled bundle (dist/). */
const WORKER_URL = new URL('./pglite-worker.js', import.meta.url);

/** Rebuilt as PGlite threw it, so whoever reads `code`, `constraint`, `detail`… reads what PostgreSQL sent. */
function revive(serialized: SerializedError, options: PgliteQueryOptions | undefined): Error {
  const { length, ...fields } = serialized.fields;
  if (serialized.database) {
    const error = new messages.DatabaseError(
      serialized.message,
      typeof length === 'number' ? length : 0,
      serialized.name as messages.MessageName,
    );
    return Object.assign(error, fields, { queryOptions: options });
  }
  const error = new Error(serialized.message);
  error.name = serialized.name;
  return Object.assign(error, fields);
}

/** Parsers are functions, which cannot cross threads: only those that keep PostgreSQL's text are accepted. */
const textTypesByParsers = new WeakMap<object, number[]>();
function textTypesOf(parsers: QueryOptions['parsers']): number[] {
  if (!parsers) return [];
  let types = textTypesByParsers.get(parsers);
  if (!types) {
    types = Object.entries(parsers).map(([type, parse]) => {
      const probe = '2026-11-20 08:00:00+00';
      if (parse(probe) !== probe)
        throw new Error(`PGlite worker: a parser for type ${type} that changes the text cannot cross to the worker`);
      return Number(type);
    });
    textTypesByParsers.set(parsers, types);
  }
  return types;
}

type Pending = { resolve(value: unknown): void; reject(error: Error): void; options?: PgliteQueryOptions };
type Request = WorkerRequest extends infer R ? (R extends WorkerRequest ? Omit<R, 'id'> : never) : never;

/**
 * PGlite in a thread of its own (ADR 0036): its WASM runs on another core while this thread serves
 * HTTP. Statements and transactions keep PGlite's order and isolation (the worker runs them through
 * PGlite's own `query` and `transaction`); rows, errors and notifications come back as PGlite gives
 * them in-process. The thread keeps the process alive only while a statement is in flight.
 */
export async function startPgliteWorker(dataDir: string): Promise<PgliteClient> {
  // execArgv: none of this process's loaders (tsx) or flags: the worker is plain JavaScript.
  const worker = new Worker(WORKER_URL, { workerData: { dataDir } satisfies PgliteWorkerData, execArgv: [] });
  const pending = new Map<number, Pending>();
  const listeners = new Map<number, (payload: string) => void>();
  let nextId = 1;
  let failure: Error | null = null;

  const fail = (error: Error) => {
    failure ??= error;
    for (const call of pending.values()) call.reject(failure);
    pending.clear();
    worker.unref();
  };

  await new Promise<void>((resolve, reject) => {
    const settle = (error?: Error) => {
      worker.off('message', started);
      worker.off('error', settle);
      worker.off('exit', exited);
      if (error) reject(error);
      else resolve();
    };
    const started = (message: WorkerMessage) => {
      if (message.kind === 'ready') settle();
    };
    const exited = (code: number) => settle(new Error(`PGlite's thread ended before PGlite opened (exit code ${code})`));
    worker.on('message', started);
    worker.on('error', settle);
    worker.on('exit', exited);
  });

  worker.on('message', (message: WorkerMessage) => {
    if (message.kind === 'notify') {
      listeners.get(message.subscription)?.(message.payload);
      return;
    }
    if (message.kind === 'ready') return;
    const call = pending.get(message.id);
    if (!call) return;
    pending.delete(message.id);
    if (pending.size === 0) worker.unref();
    if (message.kind === 'reply') call.resolve(message.result);
    else call.reject(revive(message.error, call.options));
  });
  worker.on('error', (error) => fail(new Error(`PGlite's thread failed: ${error.message}`, { cause: error })));
  worker.on('exit', (code) => fail(new Error(`PGlite's thread has ended (exit code ${code})`)));
  worker.unref();

  const call = <T>(request: Request, options?: PgliteQueryOptions): Promise<T> => {
    if (failure) return Promise.reject(failure);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      if (pending.size === 0) worker.ref();
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject, ...(options ? { options } : {}) });
      try {
        worker.postMessage({ ...request, id } as WorkerRequest);
      } catch (error) {
        // A parameter that cannot be cloned (a function): nothing was sent.
        pending.delete(id);
        if (pending.size === 0) worker.unref();
        reject(error as Error);
      }
    });
  };

  const queryIn =
    (tx: number | null) =>
    <T>(text: string, params: unknown[] = [], options: PgliteQueryOptions = {}) =>
      call<Results<T>>(
        {
          op: 'query',
          tx,
          text,
          params,
          rowMode: options.rowMode ?? 'object',
          textTypes: textTypesOf(options.parsers),
          blob: options.blob ?? null,
        },
        options,
      );

  let nextTransaction = 1;
  let nextSubscription = 1;
  return {
    query: queryIn(null),
    async transaction(callback) {
      const tx = nextTransaction++;
      await call({ op: 'begin', tx });
      let result;
      try {
        result = await callback({ query: queryIn(tx) });
      } catch (error) {
        // As PGlite's transaction(): roll back, release the worker to what waits, and throw what the callback threw.
        await call({ op: 'end', tx, commit: false }).catch(() => undefined);
        throw error;
      }
      await call({ op: 'end', tx, commit: true });
      return result;
    },
    async listen(channel, callback) {
      const subscription = nextSubscription++;
      listeners.set(subscription, callback);
      try {
        await call({ op: 'listen', channel, subscription });
      } catch (error) {
        listeners.delete(subscription);
        throw error;
      }
      return async () => {
        listeners.delete(subscription);
        await call({ op: 'unlisten', subscription });
      };
    },
    async close() {
      try {
        if (!failure) await call({ op: 'close' });
      } finally {
        fail(new Error("PGlite's thread has ended: the database was closed"));
        await worker.terminate();
      }
    },
  };
}
