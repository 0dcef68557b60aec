// @ts-check
// The thread that owns PGlite (ADR 0036): it runs the statements the request thread sends, so the
// WASM's work uses a core of its own. Plain JavaScript, importing only packages and pglite-options.js, so it runs
// under tsx, under vitest and beside the compiled bundle without a TypeScript loader in this thread.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, messages } from '@electric-sql/pglite';
import { pgliteOptions } from './pglite-options.js';

/**
 * @typedef {import('./pglite-worker-protocol').PgliteWorkerData} PgliteWorkerData
 * @typedef {import('./pglite-worker-protocol').WorkerRequest} WorkerRequest
 * @typedef {import('./pglite-worker-protocol').QueryRequest} QueryRequest
 * @typedef {import('./pglite-worker-protocol').WorkerMessage} WorkerMessage
 * @typedef {import('./pglite-worker-protocol').SerializedError} SerializedError
 * @typedef {import('@electric-sql/pglite').Transaction} Transaction
 */

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const { dataDir } = /** @type {PgliteWorkerData} */ (workerData);

const pglite = await PGlite.create(pgliteOptions(dataDir));

/** Thrown inside PGlite's transaction() to make it roll back; never leaves this file. */
const ROLLBACK = Symbol('rollback');

/**
 * Open transactions by number: `tx` once BEGIN has run; `finish` makes PGlite's transaction() commit
 * or roll back; `settled` is that transaction()'s outcome.
 * @typedef {{ tx: Transaction | null; finish(commit: boolean): void; settled: Promise<unknown> }} OpenTransaction
 * @type {Map<number, OpenTransaction>}
 */
const transactions = new Map();
/** @type {Map<number, () => Promise<void>>} */
const subscriptions = new Map();
/** @type {Map<string, Record<number, (text: string) => string>>} */
const textParsers = new Map();

/** @param {WorkerMessage} message */
const post = (message) => port.postMessage(message);

/** PostgreSQL errors keep every field they came with; other errors their name and message. @returns {SerializedError} */
function serializeError(/** @type {unknown} */ error) {
  if (!(error instanceof Error)) return { database: false, name: 'Error', message: String(error), fields: {} };
  /** @type {Record<string, unknown>} */
  const fields = {};
  for (const [key, value] of Object.entries(error)) {
    // queryOptions may hold functions, which cannot cross; the request thread puts its own back.
    if (key === 'queryOptions' || typeof value === 'function' || typeof value === 'symbol') continue;
    fields[key] = value;
  }
  return { database: error instanceof messages.DatabaseError, name: error.name, message: error.message, fields };
}

/** @param {number} id @param {unknown} error */
function postError(id, error) {
  const serialized = serializeError(error);
  try {
    post({ kind: 'error', id, error: serialized });
  } catch {
    // A field that cannot be cloned: the name, message and code still go.
    const { code } = serialized.fields;
    post({ kind: 'error', id, error: { ...serialized, fields: typeof code === 'string' ? { code } : {} } });
  }
}

/** @param {number[]} types */
function parsersKeepingText(types) {
  const key = types.join(',');
  let parsers = textParsers.get(key);
  if (!parsers) {
    parsers = Object.fromEntries(types.map((type) => [type, (/** @type {string} */ text) => text]));
    textParsers.set(key, parsers);
  }
  return parsers;
}

/** @param {number} number */
function openTransaction(number) {
  const open = transactions.get(number);
  if (!open?.tx) throw new Error('Transaction is closed');
  return { ...open, tx: open.tx };
}

/** @param {QueryRequest} request */
async function query(request) {
  const options = {
    rowMode: request.rowMode,
    ...(request.textTypes.length ? { parsers: parsersKeepingText(request.textTypes) } : {}),
    ...(request.blob ? { blob: request.blob } : {}),
  };
  if (request.tx === null) return pglite.query(request.text, request.params, options);
  return openTransaction(request.tx).tx.query(request.text, request.params, options);
}

/**
 * PGlite's own transaction(): it waits for the statements and transactions sent before it, and while
 * its callback runs every other query() waits, so only the statements sent with this transaction's
 * number run until `end`. Answered from inside the callback, once BEGIN has run.
 * @param {{ id: number; tx: number }} request
 */
function begin(request) {
  /** @type {OpenTransaction} */
  const open = { tx: null, finish: () => undefined, settled: Promise.resolve() };
  open.settled = pglite.transaction(
    (tx) =>
      new Promise((resolve, reject) => {
        open.tx = tx;
        open.finish = (commit) => (commit ? resolve(undefined) : reject(ROLLBACK));
        post({ kind: 'reply', id: request.id, result: null });
      }),
  );
  transactions.set(request.tx, open);
  open.settled.catch((/** @type {unknown} */ error) => {
    // BEGIN itself failed: nobody will send `end`. Later failures (COMMIT) are the reply to `end`.
    if (open.tx) return;
    transactions.delete(request.tx);
    postError(request.id, error);
  });
}

/** @param {{ tx: number; commit: boolean }} request */
async function end(request) {
  const open = openTransaction(request.tx);
  transactions.delete(request.tx);
  open.finish(request.commit);
  try {
    await open.settled;
  } catch (error) {
    if (error !== ROLLBACK) throw error;
  }
  return null;
}

/** @param {WorkerRequest} request @returns {Promise<unknown>} undefined: answered elsewhere */
async function handle(request) {
  switch (request.op) {
    case 'query':
      return query(request);
    case 'begin':
      begin(request);
      return undefined;
    case 'end':
      return end(request);
    case 'listen': {
      const unsubscribe = await pglite.listen(request.channel, (payload) =>
        post({ kind: 'notify', subscription: request.subscription, payload }),
      );
      subscriptions.set(request.subscription, () => unsubscribe());
      return null;
    }
    case 'unlisten': {
      const unsubscribe = subscriptions.get(request.subscription);
      subscriptions.delete(request.subscription);
      await unsubscribe?.();
      return null;
    }
    case 'close':
      await pglite.close();
      return null;
  }
}

port.on('message', (/** @type {WorkerRequest} */ request) => {
  handle(request)
    .then((result) => {
      if (result !== undefined) post({ kind: 'reply', id: request.id, result });
    })
    // A failed statement, or a result that could not be cloned: the caller is answered either way.
    .catch((error) => postError(request.id, error));
});

post({ kind: 'ready' });
