import type { Logger } from "drizzle-orm/logger";
import type { SqliteDb } from "./client.ts";
import type { Db } from "./types.ts";

/**
 * Runs `work` as one transaction: every write it makes lands, or (when it throws) none does
 * and the error is rethrown. Answers what work returns.
 *
 * The contract, which any database's version of this function keeps:
 * - work issues every statement of the unit through `tx`, never through the outer `db`;
 * - work awaits nothing but those statements: compute, hash and read files before calling
 *   this, then write. A transaction is a short burst of statements, never a wait;
 * - transactions do not nest.
 *
 * Why drizzle's own db.transaction() is not used on SQLite: with bun:sqlite it takes a
 * synchronous callback, and an async one is committed at its first await, so a failure
 * later leaves half the writes behind. Here BEGIN IMMEDIATE and COMMIT surround the awaited
 * statements instead. One connection serves every request, so nothing else may run a
 * statement while the transaction is open:
 * - drizzle runs a bun:sqlite statement at once and resolves it on the next microtask, so a
 *   work that keeps the contract ends within one turn of the event loop, before any other
 *   request's callback can run;
 * - each transaction starts on a fresh turn (so no continuation another request left queued
 *   runs inside it), after the one before has ended;
 * - should a work wait for anything else after all, a statement another request runs on the
 *   outer db meanwhile fails with TransactionOpenError instead of slipping into (and maybe
 *   being rolled back with) this transaction.
 * On PostgreSQL (db/postgres.ts) it is drizzle's db.transaction(work): one pooled connection
 * holds the transaction, and other requests meanwhile run on the pool's other connections.
 */
export function inTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  const runner = runners.get(db);
  if (runner) return runner(work);
  const queue = queues.get(db);
  if (!queue)
    throw new Error("This database was not opened by openDatabase() or openPostgres(): it has no transactions.");
  const run = queue.last.then(nextTurn).then(() => runAtomically(queue, work));
  queue.last = run.then(
    () => undefined,
    () => undefined,
  );
  return run;
}

export class TransactionOpenError extends Error {
  constructor() {
    super(
      "A statement ran while a transaction was open on the same connection; the transaction's work must await only its own statements.",
    );
  }
}

/**
 * One connection's transactions, run one after another (a queue chained on promises), and
 * what its statements check: whether one is open, and the write guard.
 */
export interface TransactionQueue {
  /** A second drizzle instance over the same connection, for the statements of a transaction. */
  tx: SqliteDb;
  open: boolean;
  /** The last transaction started; the next one starts after it. */
  last: Promise<unknown>;
  /** Runs before every write and every commit, and throws to refuse it (see DatabaseHandle.guardWrites). */
  guard?: () => void;
}

const queues = new WeakMap<Db, TransactionQueue>();

/** How a database whose driver has real transactions runs one (PostgreSQL's). */
type TransactionRunner = <T>(work: (tx: Db) => Promise<T>) => Promise<T>;
const runners = new WeakMap<Db, TransactionRunner>();

/** Called once per database by the code that opens a PostgreSQL one. */
export function registerTransactionRunner(db: Db, runner: TransactionRunner): void {
  runners.set(db, runner);
}

/**
 * The logger the outer db is opened with: drizzle calls it before every statement, which is
 * where a statement from outside an open transaction is refused, and a write (a statement
 * `writes` matches) is put to the queue's guard.
 */
export function outsideTransactionsOnly(queue: Pick<TransactionQueue, "open" | "guard">, writes: RegExp): Logger {
  return {
    logQuery(sql) {
      if (queue.open) throw new TransactionOpenError();
      if (queue.guard && writes.test(sql)) queue.guard();
    },
  };
}

/** Called once per connection by the code that opens it. */
export function registerTransactionQueue(db: Db, queue: TransactionQueue): void {
  queues.set(db, queue);
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

async function runAtomically<T>(queue: TransactionQueue, work: (tx: Db) => Promise<T>): Promise<T> {
  const connection = queue.tx.$client;
  connection.run("BEGIN IMMEDIATE");
  queue.open = true;
  try {
    const result = await work(queue.tx);
    queue.guard?.();
    connection.run("COMMIT");
    return result;
  } catch (error) {
    // Some failures (a full disk) end the transaction in SQLite already.
    if (connection.inTransaction) connection.run("ROLLBACK");
    throw error;
  } finally {
    queue.open = false;
  }
}
