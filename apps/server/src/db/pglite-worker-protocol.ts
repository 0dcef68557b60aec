/**
 * Messages between the request thread and the thread that owns PGlite (pglite-worker.js, ADR 0036).
 * Types only: the worker is plain JavaScript and reads these through JSDoc.
 */

/** `workerData` of the worker: where PGlite keeps its files (`memory://…` keeps nothing). */
export interface PgliteWorkerData {
  dataDir: string;
}

/** A statement: `tx` names the open transaction it belongs to, null for one outside any. */
export interface QueryRequest {
  op: 'query';
  id: number;
  tx: number | null;
  text: string;
  params: unknown[];
  rowMode: 'object' | 'array';
  /** Type OIDs whose values come back as PostgreSQL's text (Drizzle's identity parsers for dates and intervals). */
  textTypes: number[];
  /** COPY … FROM '/dev/blob' input. */
  blob: Blob | null;
}

export type WorkerRequest =
  | QueryRequest
  /** Waits its turn behind whatever runs, then BEGIN: from its reply until `end`, only `tx`'s statements run. */
  | { op: 'begin'; id: number; tx: number }
  /** COMMIT (or ROLLBACK), releasing the worker to the statements queued meanwhile. */
  | { op: 'end'; id: number; tx: number; commit: boolean }
  | { op: 'listen'; id: number; channel: string; subscription: number }
  | { op: 'unlisten'; id: number; subscription: number }
  | { op: 'close'; id: number };

/** An error as it crosses threads: its class is lost on the way, so what callers read is carried by name. */
export interface SerializedError {
  /** PGlite's DatabaseError (a PostgreSQL error): rebuilt as one, with every field PostgreSQL sent. */
  database: boolean;
  name: string;
  message: string;
  /** code ('23505', '40001'…), severity, detail, hint, constraint, table, column, position, query, params… */
  fields: Record<string, unknown>;
}

export type WorkerMessage =
  | { kind: 'ready' }
  | { kind: 'reply'; id: number; result: unknown }
  | { kind: 'error'; id: number; error: SerializedError }
  | { kind: 'notify'; subscription: number; payload: string };
