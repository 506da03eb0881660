import { AsyncLocalStorage } from 'node:async_hooks';
import type { Transaction as OrmTransaction } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';

/** The connection's side (coalescing-driver.ts, loaded with the PostgreSQL driver only). */
export interface WriteSender {
  readonly coalesces: true;
  sendWrites(writes: readonly PendingWrite[], ctx: OrmTransaction | null): Promise<void>;
  /** The raw connection a transaction runs on: its COMMIT carries what still waits (pipelining-client.ts). */
  connectionOf(ctx: OrmTransaction): Promise<unknown>;
}

/** A write whose answer nobody reads, as SQL with its values in place; `mapError` turns its failure into the error its caller promised. */
export interface PendingWrite {
  readonly sql: string;
  readonly mapError?: (err: unknown) => Error | null;
}

/** The writes a transaction has yet to send, and the transaction they belong to. */
export interface WriteBuffer {
  ctx: OrmTransaction | null;
  writes: PendingWrite[];
  /** Set once the transaction's last flush began: nothing may wait in it any more (a late write runs at once). */
  closed: boolean;
  /** The raw connection whose COMMIT takes along what still waits, once the transaction's work is done. */
  commitOn?: unknown;
  /**
   * The error a failed deferred write's repository promised. The statement that carried it fails
   * with the driver's error (MikroORM wraps whatever a connection throws); the transaction, which
   * that failure ends, answers this one instead.
   */
  failure?: Error;
}

/**
 * One store per process, even if a loader evaluates this module twice (tsx may load it once per
 * module system): the transaction that buffers and the connection that sends must see the same.
 */
const STORE = Symbol.for('servicedesk.deferred-writes');
const buffers: AsyncLocalStorage<WriteBuffer> = ((globalThis as Record<symbol, unknown>)[STORE] ??=
  new AsyncLocalStorage<WriteBuffer>()) as AsyncLocalStorage<WriteBuffer>;

/**
 * The write buffer of the transaction this async context runs in, while it is open. An async
 * context can outlive its transaction (work it started and left behind): its buffer is closed then.
 */
export function currentWriteBuffer(evenClosed = false): WriteBuffer | undefined {
  const buffer = buffers.getStore();
  return buffer && (evenClosed || !buffer.closed) ? buffer : undefined;
}

/** Records, for the transaction, the error the first failing write's repository promised (see WriteBuffer.failure). */
export function recordWriteFailure(writes: readonly PendingWrite[], err: unknown, buffer = currentWriteBuffer() ?? currentWriteBuffer(true)): void {
  for (const w of writes) {
    const mapped = w.mapError?.(err);
    if (mapped) {
      if (buffer) buffer.failure ??= mapped;
      return;
    }
  }
}

/**
 * A transaction's writes whose answers nobody reads (a message, an outbox entry, an attendance
 * cycle row) wait, in order, until the transaction's next statement, and travel with it as one
 * multi-statement query: one round trip and one socket write instead of one each. What is still
 * waiting at the end of the transaction goes with its COMMIT. Reads in the transaction
 * see every write deferred before them (they run after them, on the same connection); a failing
 * write fails the statement it rode with, inside the transaction, which then rolls back, and its
 * error is the one its repository promised (`mapError`).
 *
 * Only on PostgreSQL through `CoalescingPostgreSqlDriver` (coalescing-driver.ts); elsewhere
 * (PGlite, no transaction, a nested transaction) a deferred write runs at once.
 */
export class DeferredWrites {
  /** Runs the outermost transaction's work with a buffer; `flush` is called before its commit. */
  static run<T>(work: () => Promise<T>): Promise<T> {
    const buffer: WriteBuffer = { ctx: null, writes: [], closed: false };
    return buffers.run(buffer, () =>
      work().then(
        (value) => {
          buffer.closed = true;
          return value;
        },
        (err: unknown) => {
          buffer.closed = true;
          buffer.writes.length = 0;
          throw buffer.failure ?? err;
        },
      ),
    );
  }

  /** Binds the open buffer to the transaction the work runs in (called first thing inside it). */
  static bind(em: SqlEntityManager): void {
    const buffer = currentWriteBuffer();
    if (buffer && !buffer.ctx) buffer.ctx = em.getTransactionContext() ?? null;
  }

  /** Sends what waits, in one round trip (before a nested transaction's savepoint). */
  static async flush(em: SqlEntityManager): Promise<void> {
    const buffer = currentWriteBuffer();
    if (!buffer?.writes.length) return;
    const writes = buffer.writes.splice(0);
    const connection = em.getConnection() as unknown as WriteSender;
    await connection.sendWrites(writes, buffer.ctx);
  }

  /**
   * The transaction's work is done: what still waits (and whatever is deferred until the commit)
   * goes with its COMMIT, on the connection it runs on. Called last thing inside the transaction.
   */
  static async beforeCommit(em: SqlEntityManager): Promise<void> {
    const buffer = currentWriteBuffer();
    const connection = em.getConnection() as unknown as Partial<WriteSender>;
    if (!buffer?.ctx || !connection.coalesces) return;
    buffer.commitOn = await connection.connectionOf!(buffer.ctx);
  }

  /** Throws if a committed transaction left writes behind (they would be lost: a bug, never data to drop quietly). */
  static assertSent(): void {
    const buffer = currentWriteBuffer(true);
    if (buffer?.writes.length) throw new Error(`${buffer.writes.length} deferred writes were not sent with their transaction`);
  }

  /**
   * Defers `sql` (with `?` placeholders for `params`) to the transaction's next statement when the
   * driver coalesces and a transaction is open; else runs it now.
   */
  static async write(em: SqlEntityManager, sql: string, params: readonly unknown[], mapError?: (err: unknown) => Error | null): Promise<void> {
    const buffer = currentWriteBuffer();
    const connection = em.getConnection() as unknown as Partial<WriteSender>;
    const ctx = em.getTransactionContext();
    // Only into the buffer of the very transaction the write runs in; inside a nested one (a
    // savepoint, whose rollback must take them) and anywhere else, writes run at once.
    if (!buffer || !connection.coalesces || !ctx || buffer.ctx !== ctx) {
      try {
        await em.execute(sql, [...params], 'run');
      } catch (err) {
        throw mapError?.(err) ?? err;
      }
      return;
    }
    buffer.writes.push({ sql: em.getPlatform().formatQuery(sql, [...params]), ...(mapError ? { mapError } : {}) });
  }
}
